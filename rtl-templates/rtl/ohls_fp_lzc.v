// ohls_fp_lzc: leading-zero count of a W-bit word, combinational (latency 0).
//
// Used by the float units to normalise mantissas. No handshake (pure logic).
//
// Parameters:
//   W  - width of the word (>= 1)
//   CW - width of the count, $clog2(W+1) by default (enough to hold W)
// Ports:
//   x     - the word
//   count - number of zero bits above the most significant one; W when x is zero
module ohls_fp_lzc #(
    parameter W  = 32,
    parameter CW = $clog2(W + 1)
) (
    input  wire [ W-1:0] x,
    output reg  [CW-1:0] count
);
  localparam [CW-1:0] ALL_ZERO = W;
  integer i;
  reg [CW-1:0] k;
  reg found;
  always @* begin
    count = ALL_ZERO;
    found = 1'b0;
    k = {CW{1'b0}};
    for (i = W - 1; i >= 0; i = i - 1) begin
      if (!found && x[i]) begin
        count = k;
        found = 1'b1;
      end
      k = k + 1'b1;
    end
  end
endmodule
