// ohls_dp_to_half: binary64 to binary16 conversion (narrowing, vstore_half of a double),
// four rounding modes, pipelined.
//
// Finite values are rounded once by `rm` (no double rounding through binary32),
// subnormal results exact; values beyond the binary16 range give infinity or the largest
// finite number, per mode. +-inf stay infinite. A NaN gives its sign and all payload bits
// set (0x7FFF / 0xFFFF), what POCL's half stores give and the interpreter reproduces.
// Latency: LATENCY cycles, 0..2 (default 1); registers go to the output, then the input.
// Throughput: one conversion per cycle. Handshake: `en` low freezes the pipeline;
// `in_valid` travels with the operation to `out_valid`.
//
// Parameters:
//   LATENCY - 0..2
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a, rm
//   a         - the binary64 bit pattern
//   rm        - rounding: 0 to nearest even, 1 toward zero, 2 toward +inf, 3 toward -inf
//   out_valid - result holds a finished conversion
//   result    - the binary16 bit pattern
module ohls_dp_to_half #(
    parameter LATENCY = 1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [63:0] a,
    input  wire [ 1:0] rm,
    output wire        out_valid,
    output wire [15:0] result
);
  localparam RANK_IN = 1, RANK_OUT = 0;

  wire [63:0] a0;
  wire [ 1:0] rm0;
  wire        v0;
  ohls_fp_stage #(
      .W  (66),
      .REG(LATENCY > RANK_IN)
  ) s_in (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data({a, rm}),
      .out_valid(v0),
      .out_data({a0, rm0})
  );

  wire [10:0] e0 = a0[62:52];
  wire        e_max = &e0;
  wire        nan0 = e_max & (|a0[51:0]);
  wire        inf0 = e_max & ~(|a0[51:0]);
  // binary16 biased exponent of the hidden bit: e - 1023 + 15 (subnormal inputs, far
  // below the binary16 range, use e = 1 and leave only a sticky bit).
  wire [11:0] e16 = {1'b0, (e0 == 11'd0) ? 11'd1 : e0} - 12'd1008;
  // 11 bits, guard, round, sticky
  wire [13:0] m0 = {e0 != 11'd0, a0[51:40], |a0[39:0]};
  wire [11:0] ed0;
  wire [13:0] md0;
  ohls_fp_denorm #(
      .W (14),
      .XW(12)
  ) u_den (
      .exp   (e16),
      .mant  (m0),
      .exp_o (ed0),
      .mant_o(md0)
  );
  wire [15:0] rounded0;
  ohls_fp_round #(
      .EW(5),
      .MW(10),
      .XW(12)
  ) u_round (
      .sign  (a0[63]),
      .exp   (ed0),
      .mant  (md0[13:3]),
      .guard (md0[2]),
      .sticky(|md0[1:0]),
      .rm    (rm0),
      .result(rounded0)
  );
  wire [15:0] res0 = nan0 ? {a0[63], 15'h7FFF} : inf0 ? {a0[63], 5'h1F, 10'd0} : rounded0;

  ohls_fp_stage #(
      .W  (16),
      .REG(LATENCY > RANK_OUT)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v0),
      .in_data(res0),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule
