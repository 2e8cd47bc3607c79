// ohls_fp_mul: IEEE-754 binary32 multiplier, round to nearest even, pipelined.
//
// result = a * b, correctly rounded, subnormal inputs and outputs exact (no flush to
// zero), inf * 0 and NaN operands give the canonical quiet NaN 0x7FC00000.
//
// Datapath: 24x24-bit mantissa product with the `*` operator (one 27x27 DSP block on
// Cyclone V), leading-zero normalisation (for subnormal operands), a sticky right shift
// for subnormal results, round and pack.
// Latency: LATENCY cycles, 0..5 (default 4); the registers go to the cuts in the order
// output, after the product, after normalise, after denormalise, input.
// Throughput: one operation per cycle (II = 1).
// Handshake: `en` low freezes the whole pipeline; `in_valid` travels with the operation
// and comes out as `out_valid` LATENCY enabled cycles later.
//
// Parameters:
//   LATENCY - pipeline depth in cycles, 0..5
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a, b
//   a, b      - operands (binary32 bit patterns)
//   out_valid - result holds a finished operation
//   result    - the product (binary32)
module ohls_fp_mul #(
    parameter LATENCY = 4
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
  localparam RANK_IN = 4, RANK_MUL = 1, RANK_NORM = 2, RANK_DEN = 3, RANK_OUT = 0;

  wire [31:0] a0, b0;
  wire        v0;
  ohls_fp_stage #(
      .W  (64),
      .REG(LATENCY > RANK_IN)
  ) s_in (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data({a, b}),
      .out_valid(v0),
      .out_data({a0, b0})
  );

  // ---- classify, exponent, mantissa product
  wire        a_exp0 = a0[30:23] == 8'd0, b_exp0 = b0[30:23] == 8'd0;
  wire        a_max = &a0[30:23], b_max = &b0[30:23];
  wire        a_zero = a_exp0 & ~(|a0[22:0]), b_zero = b_exp0 & ~(|b0[22:0]);
  wire        a_inf = a_max & ~(|a0[22:0]), b_inf = b_max & ~(|b0[22:0]);
  wire        nan1 = (a_max & (|a0[22:0])) | (b_max & (|b0[22:0])) | (a_inf & b_zero) |
      (b_inf & a_zero);
  wire        inf1 = a_inf | b_inf;
  wire        sign1 = a0[31] ^ b0[31];
  wire [ 9:0] ea1 = {2'b00, a_exp0 ? 8'd1 : a0[30:23]};
  wire [ 9:0] eb1 = {2'b00, b_exp0 ? 8'd1 : b0[30:23]};
  // Biased exponent of product bit 47 (the product of two hidden bits lands on 46 or 47).
  wire [ 9:0] e1 = ea1 + eb1 - 10'd126;
  wire [23:0] ma1 = {~a_exp0, a0[22:0]};
  wire [23:0] mb1 = {~b_exp0, b0[22:0]};
  wire [47:0] p1 = ma1 * mb1;

  wire        nan2, inf2, sign2, v2;
  wire [ 9:0] e2;
  wire [47:0] p2;
  ohls_fp_stage #(
      .W  (61),
      .REG(LATENCY > RANK_MUL)
  ) s_mul (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v0),
      .in_data({nan1, inf1, sign1, e1, p1}),
      .out_valid(v2),
      .out_data({nan2, inf2, sign2, e2, p2})
  );

  // ---- normalise left, but not below exponent 1 (the rest is the denormaliser's job).
  // Only a subnormal operand times a normal one needs this, and then the product is at
  // least 2^23: the leading one is in the top 25 bits, so the count looks only there.
  // (Two subnormals give exponent <= 0: no left shift at all.)
  wire [4:0] lz2;
  ohls_fp_lzc #(
      .W (25),
      .CW(5)
  ) u_lzc (
      .x    (p2[47:23]),
      .count(lz2)
  );
  wire       e2_pos = ~e2[9] & (e2 != 10'd0);
  wire [9:0] room2 = e2 - 10'd1;
  wire [4:0] sh2 = ~e2_pos ? 5'd0 : (room2 < {5'b00000, lz2}) ? room2[4:0] : lz2;
  wire [47:0] n2 = p2 << sh2;
  wire [9:0] en2 = e2 - {5'b00000, sh2};

  wire nan3, inf3, sign3, v3;
  wire [9:0] e3;
  wire [26:0] n3;
  ohls_fp_stage #(
      .W  (40),
      .REG(LATENCY > RANK_NORM)
  ) s_norm (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v2),
      .in_data({nan2, inf2, sign2, en2, n2[47:22], |n2[21:0]}),
      .out_valid(v3),
      .out_data({nan3, inf3, sign3, e3, n3})
  );

  // ---- subnormal results: shift right to exponent 1 (24 bits, guard, round, sticky)
  wire [ 9:0] ed3;
  wire [26:0] d3;
  ohls_fp_denorm #(
      .W (27),
      .XW(10)
  ) u_den (
      .exp   (e3),
      .mant  (n3),
      .exp_o (ed3),
      .mant_o(d3)
  );

  wire nan4, inf4, sign4, v4;
  wire [9:0] e4;
  wire [25:0] d4;
  ohls_fp_stage #(
      .W  (39),
      .REG(LATENCY > RANK_DEN)
  ) s_den (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v3),
      .in_data({nan3, inf3, sign3, ed3, d3[26:2], |d3[1:0]}),
      .out_valid(v4),
      .out_data({nan4, inf4, sign4, e4, d4})
  );

  // ---- round and pack
  wire [31:0] rounded4;
  ohls_fp_round #(
      .EW(8),
      .MW(23),
      .XW(10)
  ) u_round (
      .sign  (sign4),
      .exp   (e4),
      .mant  (d4[25:2]),
      .guard (d4[1]),
      .sticky(d4[0]),
      .rm    (2'd0),
      .result(rounded4)
  );
  wire [31:0] res4 = nan4 ? 32'h7FC00000 : inf4 ? {sign4, 8'hFF, 23'd0} : rounded4;

  ohls_fp_stage #(
      .W  (32),
      .REG(LATENCY > RANK_OUT)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v4),
      .in_data(res4),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule
