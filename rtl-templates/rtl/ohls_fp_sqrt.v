// ohls_fp_sqrt: IEEE-754 binary32 square root, round to nearest even, fully pipelined.
//
// result = sqrt(a), correctly rounded; subnormal inputs are exact (the result of a
// positive input is always normal). sqrt(-0) = -0, sqrt(+inf) = +inf, a negative input
// or a NaN gives the canonical quiet NaN 0x7FC00000.
//
// Datapath: a subnormal input is normalised, the exponent halved (the mantissa doubled
// when the exponent is odd), then an unrolled restoring square root (25 steps: 24 result
// bits and a guard bit, the remainder as sticky), round and pack.
// Latency: LATENCY cycles, 0..27 (default 14). Registers go first to the output (1) and
// after the normalisation (2); the remaining LATENCY-2 are spread evenly over the steps.
// Throughput: one operation per cycle (II = 1).
// Handshake: `en` low freezes the whole pipeline; `in_valid` travels with the operation
// and comes out as `out_valid` LATENCY enabled cycles later.
//
// Parameters:
//   LATENCY - pipeline depth in cycles, 0..27
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a
//   a         - the operand (binary32 bit pattern)
//   out_valid - result holds a finished operation
//   result    - the square root (binary32)
module ohls_fp_sqrt #(
    parameter LATENCY = 14
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [31:0] a,
    output wire        out_valid,
    output wire [31:0] result
);
  localparam STEPS = 25;
  localparam NI_RAW = LATENCY > 2 ? LATENCY - 2 : 0;
  localparam NI = NI_RAW > STEPS ? STEPS : NI_RAW;

  // ---- classify, normalise, halve the exponent
  wire        e0 = a[30:23] == 8'd0;
  wire        emax = &a[30:23];
  wire        zero = e0 & ~(|a[22:0]);
  wire        nan = (emax & (|a[22:0])) | (a[31] & ~zero);
  wire        inf = emax & ~(|a[22:0]);
  wire [ 4:0] lz;
  ohls_fp_lzc #(
      .W (24),
      .CW(5)
  ) u_lz (
      .x    ({~e0, a[22:0]}),
      .count(lz)
  );
  wire [23:0] mn = {~e0, a[22:0]} << lz;
  // Biased exponent after normalisation, kept positive by an offset of 32 (it is >= -22).
  wire [ 8:0] eo = {1'b0, e0 ? 8'd1 : a[30:23]} + 9'd32 - {4'd0, lz};
  // (e - 127) is odd exactly when e is even.
  wire        odd = ~eo[0];
  wire [24:0] rad = odd ? {mn, 1'b0} : {1'b0, mn};
  // Result exponent: (e - 127 - odd) / 2 + 127 = (e + 127 - odd) / 2, with e = eo - 32.
  wire [ 8:0] esum = eo + 9'd95 - {8'd0, odd};
  wire [ 7:0] er = esum[8:1];
  wire        unused_even = esum[0];

  // Step state: {remainder 27, root 25, radicand 25, exponent 8, sign, nan, inf, zero}
  localparam SW = 27 + 25 + 25 + 8 + 4;
  wire [SW-1:0] st[0:STEPS];
  wire          sv[0:STEPS];
  ohls_fp_stage #(
      .W  (SW),
      .REG(LATENCY > 1)
  ) s_pre (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data({27'd0, 25'd0, rad, er, a[31], nan, inf, zero}),
      .out_valid(sv[0]),
      .out_data(st[0])
  );

  // ---- restoring square root of rad * 2^25, two radicand bits per step
  genvar i;
  generate
    for (i = 0; i < STEPS; i = i + 1) begin : g_step
      localparam CUT = ((i + 1) * NI) / STEPS != (i * NI) / STEPS;
      wire [26:0] r = st[i][SW-1-:27];
      wire [24:0] q = st[i][SW-28-:25];
      wire [24:0] x = st[i][SW-53-:25];
      wire [11:0] rest = st[i][11:0];
      // The radicand's 25 bits feed steps 0..12 (the last one half); then zeros. A
      // generate-if keeps out-of-range part selects out of the later steps' text.
      wire [ 1:0] pair;
      if (i < 12) begin : g_pair
        assign pair = x[24-2*i-:2];
      end else if (i == 12) begin : g_half
        assign pair = {x[0], 1'b0};
      end else begin : g_zero
        assign pair = 2'b00;
      end
      wire [26:0] r4 = {r[24:0], pair};
      wire [26:0] trial = {q[24:0], 2'b01};
      wire [27:0] diff = {1'b0, r4} - {1'b0, trial};
      wire        ge = ~diff[27];
      wire [26:0] rn = ge ? diff[26:0] : r4;
      wire        unused_top = &{1'b0, r[26:25], q[24]};
      ohls_fp_stage #(
          .W  (SW),
          .REG(CUT)
      ) s_step (
          .clk(clk),
          .rst(rst),
          .en(en),
          .in_valid(sv[i]),
          .in_data({rn, q[23:0], ge, x, rest}),
          .out_valid(sv[i+1]),
          .out_data(st[i+1])
      );
    end
  endgenerate

  // ---- round and pack; flags are {sign, nan, inf, zero}
  wire [26:0] rem_f = st[STEPS][SW-1-:27];
  wire [24:0] q_f = st[STEPS][SW-28-:25];
  wire [ 7:0] e_f = st[STEPS][11:4];
  wire [ 3:0] fl_f = st[STEPS][3:0];
  wire        unused_radicand = &{1'b0, st[STEPS][SW-53-:25]};
  wire [31:0] rounded;
  ohls_fp_round #(
      .EW(8),
      .MW(23),
      .XW(8)
  ) u_round (
      .sign  (1'b0),
      .exp   (e_f),
      .mant  (q_f[24:1]),
      .guard (q_f[0]),
      .sticky(|rem_f),
      .rm    (2'd0),
      .result(rounded)
  );
  wire [31:0] res = fl_f[2] ? 32'h7FC00000 : fl_f[1] ? 32'h7F800000 :
      fl_f[0] ? {fl_f[3], 31'd0} : rounded;

  ohls_fp_stage #(
      .W  (32),
      .REG(LATENCY > 0)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(sv[STEPS]),
      .in_data(res),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule
