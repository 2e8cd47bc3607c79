// ohls_fp_round: rounds a mantissa with guard and sticky bits and packs an IEEE-754
// word (any format: EW exponent bits, MW fraction bits), combinational.
//
// The exponent field is the given exponent when the mantissa's hidden bit is set and zero
// otherwise (subnormal); the rounding increment is added to the packed {exponent,
// fraction} word so that a carry out of the fraction bumps the exponent (subnormal to
// normal, or largest finite to infinity) for free. An exponent at or above the all-ones
// value before rounding overflows: infinity or the largest finite number, per mode.
// Special values (NaN, infinity inputs, exact zeros) are the caller's job.
// Latency 0, no handshake.
//
// Parameters:
//   EW - exponent field width (8 for binary32, 5 for binary16)
//   MW - fraction field width (23 for binary32, 10 for binary16)
//   XW - width of the `exp` input (unsigned here: callers pass exp >= 1)
// Ports:
//   sign   - sign of the result
//   exp    - biased exponent of mant's top bit, >= 1
//   mant   - MW+1 bits: hidden bit and fraction, before rounding
//   guard  - the bit just below mant
//   sticky - OR of every bit below guard
//   rm     - rounding mode: 0 to nearest even, 1 toward zero, 2 toward +inf, 3 toward -inf
//   result - the packed word {sign, exponent, fraction}
module ohls_fp_round #(
    parameter EW = 8,
    parameter MW = 23,
    parameter XW = 10
) (
    input  wire          sign,
    input  wire [XW-1:0] exp,
    input  wire [  MW:0] mant,
    input  wire          guard,
    input  wire          sticky,
    input  wire [   1:0] rm,
    output wire [EW+MW:0] result
);
  localparam [XW-1:0] EXP_MAX = (1 << EW) - 1;
  wire inexact = guard | sticky;
  reg  inc;
  always @* begin
    case (rm)
      2'd0: inc = guard & (sticky | mant[0]);
      2'd2: inc = ~sign & inexact;
      2'd3: inc = sign & inexact;
      default: inc = 1'b0;
    endcase
  end
  wire [EW-1:0] field = mant[MW] ? exp[EW-1:0] : {EW{1'b0}};
  wire [EW+MW-1:0] rounded = {field, mant[MW-1:0]} + {{(EW + MW - 1) {1'b0}}, inc};
  // Overflow goes to infinity unless the mode rounds toward zero for this sign.
  wire to_max = (rm == 2'd1) | (rm == 2'd2 & sign) | (rm == 2'd3 & ~sign);
  wire [EW+MW-1:0] big = to_max ? {{(EW - 1) {1'b1}}, 1'b0, {MW{1'b1}}} : {{EW{1'b1}}, {MW{1'b0}}};
  wire ovf = exp >= EXP_MAX;
  assign result = {sign, ovf ? big : rounded};
endmodule
