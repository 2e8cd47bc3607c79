// ohls_fp_shr_sticky: logical right shift that keeps a sticky bit, combinational.
//
// Every bit shifted out is ORed into bit 0 of the result, which is what rounding needs:
// the value is then known exactly down to bit 1, and bit 0 says "something was below".
// Shift amounts of W or more leave only the sticky bit. Latency 0, no handshake.
//
// Parameters:
//   W  - word width (>= 2)
//   SW - width of the shift amount
// Ports:
//   x  - the word
//   sh - shift amount (unsigned)
//   y  - (x >> sh) with bit 0 ORed with the bits shifted out
module ohls_fp_shr_sticky #(
    parameter W  = 27,
    parameter SW = 8
) (
    input  wire [ W-1:0] x,
    input  wire [SW-1:0] sh,
    output wire [ W-1:0] y
);
  wire [W-1:0] shifted = x >> sh;
  // Ones where bits fall off the end: everything below position sh.
  wire [W-1:0] lost_mask = ~({W{1'b1}} << sh);
  wire         sticky = |(x & lost_mask);
  assign y = {shifted[W-1:1], shifted[0] | sticky};
endmodule
