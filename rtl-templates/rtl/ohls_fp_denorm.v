// ohls_fp_denorm: shifts a normalised mantissa right when its exponent is below the
// smallest normal exponent, so the result can be rounded as a subnormal. Combinational.
//
// Input: a mantissa whose top bit has the biased exponent `exp` (two's complement, may be
// zero or negative). Output: the same value with exponent max(exp, 1): unchanged when
// exp >= 1, else shifted right by 1 - exp with the shifted-out bits ORed into bit 0
// (sticky). Latency 0, no handshake.
//
// Parameters:
//   W  - mantissa width (>= 2)
//   XW - exponent width (two's complement)
// Ports:
//   exp    - biased exponent of mant's top bit (signed)
//   mant   - mantissa
//   exp_o  - max(exp, 1)
//   mant_o - mantissa aligned to exp_o, sticky in bit 0
module ohls_fp_denorm #(
    parameter W  = 27,
    parameter XW = 10
) (
    input  wire [XW-1:0] exp,
    input  wire [ W-1:0] mant,
    output wire [XW-1:0] exp_o,
    output wire [ W-1:0] mant_o
);
  localparam [XW-1:0] ONE = 1;
  wire          tiny = exp[XW-1] | (exp == {XW{1'b0}});
  wire [XW-1:0] sh = tiny ? (ONE - exp) : {XW{1'b0}};
  ohls_fp_shr_sticky #(
      .W (W),
      .SW(XW)
  ) u_shr (
      .x (mant),
      .sh(sh),
      .y (mant_o)
  );
  assign exp_o = tiny ? ONE : exp;
endmodule
