// ohls_fp_div: IEEE-754 binary32 divider, round to nearest even, fully pipelined.
//
// result = a / b, correctly rounded, subnormal inputs and outputs exact (no flush to
// zero). x/0 = +-inf for x != 0; 0/0, inf/inf and NaN operands give the canonical quiet
// NaN 0x7FC00000.
//
// Datapath: subnormal operands are normalised first, then an unrolled restoring
// division (26 compare-subtract steps on 24-bit mantissas: quotient, guard bit and a
// sticky remainder), a one-bit normalisation, a sticky right shift for subnormal
// results, round and pack. Unrolling gives II = 1 at the cost of one subtractor per bit.
// Latency: LATENCY cycles, 0..29 (default 16). Registers go first to the output (1),
// after the operand normalisation (2) and before rounding (3); the remaining LATENCY-3
// registers are spread evenly over the 26 division steps.
// Throughput: one division per cycle (II = 1).
// Handshake: `en` low freezes the whole pipeline; `in_valid` travels with the operation
// and comes out as `out_valid` LATENCY enabled cycles later.
//
// Parameters:
//   LATENCY - pipeline depth in cycles, 0..29
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a, b
//   a, b      - dividend and divisor (binary32 bit patterns)
//   out_valid - result holds a finished operation
//   result    - the quotient (binary32)
module ohls_fp_div #(
    parameter LATENCY = 16
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output wire        out_valid,
    output wire [31:0] result
);
  localparam STEPS = 26;
  localparam NI_RAW = LATENCY > 3 ? LATENCY - 3 : 0;
  localparam NI = NI_RAW > STEPS ? STEPS : NI_RAW;

  // ---- classify and normalise the operands
  wire        a_e0 = a[30:23] == 8'd0, b_e0 = b[30:23] == 8'd0;
  wire        a_max = &a[30:23], b_max = &b[30:23];
  wire        a_zero = a_e0 & ~(|a[22:0]), b_zero = b_e0 & ~(|b[22:0]);
  wire        a_inf = a_max & ~(|a[22:0]), b_inf = b_max & ~(|b[22:0]);
  wire        nan0 = (a_max & (|a[22:0])) | (b_max & (|b[22:0])) | (a_zero & b_zero) |
      (a_inf & b_inf);
  wire        inf0 = a_inf | b_zero;
  wire        zero0 = a_zero | b_inf;
  wire [ 4:0] lza, lzb;
  ohls_fp_lzc #(
      .W (24),
      .CW(5)
  ) u_lza (
      .x    ({~a_e0, a[22:0]}),
      .count(lza)
  );
  ohls_fp_lzc #(
      .W (24),
      .CW(5)
  ) u_lzb (
      .x    ({~b_e0, b[22:0]}),
      .count(lzb)
  );
  wire [23:0] ma0 = {~a_e0, a[22:0]} << lza;
  wire [23:0] mb0 = {~b_e0, b[22:0]} << lzb;
  wire [ 9:0] ea0 = {2'b00, a_e0 ? 8'd1 : a[30:23]} - {5'd0, lza};
  wire [ 9:0] eb0 = {2'b00, b_e0 ? 8'd1 : b[30:23]} - {5'd0, lzb};
  // Biased exponent of quotient bit 25 (the integer bit of ma / mb).
  wire [ 9:0] e0 = ea0 - eb0 + 10'd127;

  // Step state: {remainder 24, quotient 26, divisor 24, exponent 10, sign, nan, inf, zero}
  localparam SW = 24 + 26 + 24 + 10 + 4;
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
      .in_data({ma0, 26'd0, mb0, e0, a[31] ^ b[31], nan0, inf0, zero0}),
      .out_valid(sv[0]),
      .out_data(st[0])
  );

  // ---- restoring division, one quotient bit per step
  genvar i;
  generate
    for (i = 0; i < STEPS; i = i + 1) begin : g_step
      localparam CUT = ((i + 1) * NI) / STEPS != (i * NI) / STEPS;
      wire [23:0] r = st[i][SW-1-:24];
      // The oldest quotient bit falls off: 26 steps fill the 26-bit field exactly.
      wire [24:0] q = st[i][SW-26-:25];
      wire [23:0] d = st[i][SW-51-:24];
      wire [13:0] rest = st[i][13:0];
      // Step 0 compares the dividend itself (the integer bit); later steps double first.
      wire [24:0] r2 = (i == 0) ? {1'b0, r} : {r, 1'b0};
      wire [25:0] diff = {1'b0, r2} - {2'b00, d};
      wire        ge = ~diff[25];
      wire [23:0] rn = ge ? diff[23:0] : r2[23:0];
      // A remainder stays below the divisor (< 2^24), so bit 24 of a kept difference is 0.
      wire        unused_diff = diff[24];
      ohls_fp_stage #(
          .W  (SW),
          .REG(CUT)
      ) s_step (
          .clk(clk),
          .rst(rst),
          .en(en),
          .in_valid(sv[i]),
          .in_data({rn, q, ge, d, rest}),
          .out_valid(sv[i+1]),
          .out_data(st[i+1])
      );
    end
  endgenerate

  // ---- normalise the quotient to [1, 2) and shift subnormal results right
  wire [23:0] rem_f = st[STEPS][SW-1-:24];
  wire [25:0] q_f = st[STEPS][SW-25-:26];
  wire [ 9:0] e_f = st[STEPS][13:4];
  wire [ 3:0] fl_f = st[STEPS][3:0];
  wire        unused_divisor = &{1'b0, st[STEPS][SW-51-:24]};
  wire [26:0] qs_f = q_f[25] ? {q_f, |rem_f} : {q_f[24:0], |rem_f, 1'b0};
  wire [ 9:0] en_f = q_f[25] ? e_f : e_f - 10'd1;
  wire [ 9:0] ed_f;
  wire [26:0] md_f;
  ohls_fp_denorm #(
      .W (27),
      .XW(10)
  ) u_den (
      .exp   (en_f),
      .mant  (qs_f),
      .exp_o (ed_f),
      .mant_o(md_f)
  );

  wire [ 9:0] e_r;
  wire [24:0] m_r;
  wire [ 3:0] fl_r;
  wire        st_r, v_r;
  ohls_fp_stage #(
      .W  (40),
      .REG(LATENCY > 2)
  ) s_post (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(sv[STEPS]),
      .in_data({ed_f, md_f[26:2], |md_f[1:0], fl_f}),
      .out_valid(v_r),
      .out_data({e_r, m_r, st_r, fl_r})
  );

  // ---- round and pack; flags are {sign, nan, inf, zero}
  wire [31:0] rounded;
  ohls_fp_round #(
      .EW(8),
      .MW(23),
      .XW(10)
  ) u_round (
      .sign  (fl_r[3]),
      .exp   (e_r),
      .mant  (m_r[24:1]),
      .guard (m_r[0]),
      .sticky(st_r),
      .rm    (2'd0),
      .result(rounded)
  );
  wire [31:0] res = fl_r[2] ? 32'h7FC00000 : fl_r[1] ? {fl_r[3], 31'h7F800000} :
      fl_r[0] ? {fl_r[3], 31'd0} : rounded;

  ohls_fp_stage #(
      .W  (32),
      .REG(LATENCY > 0)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v_r),
      .in_data(res),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule
