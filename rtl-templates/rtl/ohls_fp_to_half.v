// ohls_fp_to_half: binary32 to binary16 conversion, four rounding modes, pipelined.
//
// Rounds by `rm`; results below the binary16 normal range become exact subnormal halves
// (rounded once), overflow gives infinity or the largest finite half per rounding mode,
// +-inf stays infinite and a NaN becomes the canonical quiet half NaN 0x7E00.
// Latency: LATENCY cycles, 0..2 (default 1); registers go to the output, then after
// the subnormal shift.
// Throughput: one conversion per cycle. Handshake: `en` low freezes the pipeline;
// `in_valid` travels with the operation to `out_valid`.
//
// Parameters:
//   LATENCY - 0..2
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a, rm
//   a         - the float (binary32 bit pattern)
//   rm        - rounding: 0 to nearest even, 1 toward zero, 2 toward +inf, 3 toward -inf
//   out_valid - result holds a finished conversion
//   result    - the half (binary16 bit pattern)
module ohls_fp_to_half #(
    parameter LATENCY = 1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [31:0] a,
    input  wire [ 1:0] rm,
    output wire        out_valid,
    output wire [15:0] result
);
  localparam RANK_SHIFT = 1, RANK_OUT = 0;

  wire exp0 = a[30:23] == 8'd0;
  wire emax = &a[30:23];
  wire nan = emax & (|a[22:0]);
  wire inf = emax & ~(|a[22:0]);
  // Half exponent of the hidden bit: rebias 127 -> 15. A float subnormal is far below
  // the smallest half, so its missing normalisation does not matter: it all goes sticky.
  wire [9:0] eh = {2'b00, exp0 ? 8'd1 : a[30:23]} - 10'd112;
  wire [9:0] ed;
  wire [23:0] md;
  ohls_fp_denorm #(
      .W (24),
      .XW(10)
  ) u_den (
      .exp   (eh),
      .mant  ({~exp0, a[22:0]}),
      .exp_o (ed),
      .mant_o(md)
  );

  wire [9:0] e1;
  wire [12:0] m1;
  wire [1:0] rm1;
  wire sign1, nan1, inf1, v1;
  ohls_fp_stage #(
      .W  (28),
      .REG(LATENCY > RANK_SHIFT)
  ) s_shift (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data({ed, md[23:12], |md[11:0], rm, a[31], nan, inf}),
      .out_valid(v1),
      .out_data({e1, m1, rm1, sign1, nan1, inf1})
  );

  wire [15:0] rounded1;
  ohls_fp_round #(
      .EW(5),
      .MW(10),
      .XW(10)
  ) u_round (
      .sign  (sign1),
      .exp   (e1),
      .mant  (m1[12:2]),
      .guard (m1[1]),
      .sticky(m1[0]),
      .rm    (rm1),
      .result(rounded1)
  );
  wire [15:0] res1 = nan1 ? 16'h7E00 : inf1 ? {sign1, 15'h7C00} : rounded1;

  ohls_fp_stage #(
      .W  (16),
      .REG(LATENCY > RANK_OUT)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v1),
      .in_data(res1),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule
