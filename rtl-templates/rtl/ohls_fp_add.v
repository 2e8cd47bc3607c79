// ohls_fp_add: IEEE-754 binary32 adder/subtractor, round to nearest even, pipelined.
//
// result = a + b (sub = 0) or a - b (sub = 1), correctly rounded, with subnormal inputs
// and outputs handled exactly (no flush to zero), +-inf and NaN per IEEE 754. A NaN result
// is the canonical quiet NaN 0x7FC00000. An exact zero sum is +0 unless both addends are -0.
//
// Datapath: swap so |x| >= |y|, align y with a sticky shift, add or subtract, count
// leading zeros, normalise (never below the subnormal exponent), round and pack.
// Latency: LATENCY cycles, 0..7 (default 6); the registers go to the cuts in the order
// output, after add, after swap, after normalise, after align, after count, input.
// Throughput: one operation per cycle (II = 1).
// Handshake: `en` low freezes the whole pipeline; `in_valid` travels with the operation
// and comes out as `out_valid` LATENCY enabled cycles later. No back-pressure otherwise.
//
// Parameters:
//   LATENCY - pipeline depth in cycles, 0..7
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a, b, sub
//   a, b      - operands (binary32 bit patterns)
//   sub       - 1 to compute a - b
//   out_valid - result holds a finished operation
//   result    - the sum (binary32)
module ohls_fp_add #(
    parameter LATENCY = 6
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [31:0] a,
    input  wire [31:0] b,
    input  wire        sub,
    output wire        out_valid,
    output wire [31:0] result
);
  // Cut k gets a register when LATENCY > RANK_k.
  localparam RANK_IN = 6, RANK_SWAP = 2, RANK_ALIGN = 4, RANK_ADD = 1;
  localparam RANK_LZC = 5, RANK_NORM = 3, RANK_OUT = 0;

  // ---- input cut
  wire [31:0] a0, b0;
  wire        sub0, v0;
  ohls_fp_stage #(
      .W  (65),
      .REG(LATENCY > RANK_IN)
  ) s_in (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data({a, b, sub}),
      .out_valid(v0),
      .out_data({a0, b0, sub0})
  );

  // ---- classify and swap so that |x| >= |y|
  wire       sb = b0[31] ^ sub0;
  wire       a_nan = (&a0[30:23]) & (|a0[22:0]);
  wire       b_nan = (&b0[30:23]) & (|b0[22:0]);
  wire       a_inf = (&a0[30:23]) & ~(|a0[22:0]);
  wire       b_inf = (&b0[30:23]) & ~(|b0[22:0]);
  wire       swap = b0[30:0] > a0[30:0];
  wire [30:0] xm = swap ? b0[30:0] : a0[30:0];
  wire [30:0] ym = swap ? a0[30:0] : b0[30:0];
  wire       xs1 = swap ? sb : a0[31];
  wire       eff_sub1 = a0[31] ^ sb;
  wire       nan1 = a_nan | b_nan | (a_inf & b_inf & eff_sub1);
  // |x| >= |y|, so an infinite operand is always x.
  wire       inf1 = a_inf | b_inf;
  wire [7:0] ex1 = (xm[30:23] == 8'd0) ? 8'd1 : xm[30:23];
  wire [7:0] ey1 = (ym[30:23] == 8'd0) ? 8'd1 : ym[30:23];
  wire [23:0] mx1 = {xm[30:23] != 8'd0, xm[22:0]};
  wire [23:0] my1 = {ym[30:23] != 8'd0, ym[22:0]};
  wire [7:0] d1 = ex1 - ey1;

  wire        xs2, eff_sub2, nan2, inf2, v2;
  wire [ 7:0] ex2, d2;
  wire [23:0] mx2, my2;
  ohls_fp_stage #(
      .W  (68),
      .REG(LATENCY > RANK_SWAP)
  ) s_swap (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v0),
      .in_data({xs1, eff_sub1, nan1, inf1, ex1, d1, mx1, my1}),
      .out_valid(v2),
      .out_data({xs2, eff_sub2, nan2, inf2, ex2, d2, mx2, my2})
  );

  // ---- align y to x: 3 extra bits (guard, round, sticky)
  wire [26:0] y_al2;
  ohls_fp_shr_sticky #(
      .W (27),
      .SW(8)
  ) u_align (
      .x ({my2, 3'b000}),
      .sh(d2),
      .y (y_al2)
  );

  wire        xs3, eff_sub3, nan3, inf3, v3;
  wire [ 7:0] ex3;
  wire [23:0] mx3;
  wire [26:0] y_al3;
  ohls_fp_stage #(
      .W  (63),
      .REG(LATENCY > RANK_ALIGN)
  ) s_align (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v2),
      .in_data({xs2, eff_sub2, nan2, inf2, ex2, mx2, y_al2}),
      .out_valid(v3),
      .out_data({xs3, eff_sub3, nan3, inf3, ex3, mx3, y_al3})
  );

  // ---- add or subtract magnitudes (x >= y, so the difference is never negative)
  wire [27:0] xw3 = {1'b0, mx3, 3'b000};
  wire [27:0] yw3 = {1'b0, y_al3};
  // One adder for both: x + ~y + 1 subtracts; the +1 enters as a carry through an extra
  // low bit ({x,1} + {~y,1} carries exactly eff_sub into bit 1).
  wire [27:0] yx3 = yw3 ^ {28{eff_sub3}};
  wire [28:0] sumc3 = {xw3, 1'b1} + {yx3, eff_sub3};
  wire [27:0] sum3 = sumc3[28:1];
  wire        unused_carry_in = sumc3[0];

  wire        xs4, eff_sub4, nan4, inf4, v4;
  wire [ 7:0] ex4;
  wire [27:0] sum4;
  ohls_fp_stage #(
      .W  (40),
      .REG(LATENCY > RANK_ADD)
  ) s_add (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v3),
      .in_data({xs3, eff_sub3, nan3, inf3, ex3, sum3}),
      .out_valid(v4),
      .out_data({xs4, eff_sub4, nan4, inf4, ex4, sum4})
  );

  // ---- leading zeros, limited so the exponent does not go below 1 (subnormal result)
  wire [4:0] lz4;
  ohls_fp_lzc #(
      .W (27),
      .CW(5)
  ) u_lzc (
      .x    (sum4[26:0]),
      .count(lz4)
  );
  wire [7:0] room4 = ex4 - 8'd1;
  wire [4:0] sh4 = (room4 < {3'b000, lz4}) ? room4[4:0] : lz4;
  wire       zero4 = ~(|sum4);

  wire        xs5, eff_sub5, nan5, inf5, zero5, v5;
  wire [ 7:0] ex5;
  wire [27:0] sum5;
  wire [ 4:0] sh5;
  ohls_fp_stage #(
      .W  (46),
      .REG(LATENCY > RANK_LZC)
  ) s_lzc (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v4),
      .in_data({xs4, eff_sub4, nan4, inf4, zero4, ex4, sum4, sh4}),
      .out_valid(v5),
      .out_data({xs5, eff_sub5, nan5, inf5, zero5, ex5, sum5, sh5})
  );

  // ---- normalise: one step right on carry out, else left by sh
  wire [26:0] shl5 = sum5[26:0] << sh5;
  wire [23:0] m5 = sum5[27] ? sum5[27:4] : shl5[26:3];
  wire        g5 = sum5[27] ? sum5[3] : shl5[2];
  wire        st5 = sum5[27] ? (|sum5[2:0]) : (|shl5[1:0]);
  wire [ 8:0] e5 = sum5[27] ? ({1'b0, ex5} + 9'd1) : ({1'b0, ex5} - {4'b0000, sh5});
  // Exact cancellation gives +0 in round-to-nearest; -0 only from (-0) + (-0).
  wire        sign5 = zero5 ? (xs5 & ~eff_sub5) : xs5;

  wire        sign6, nan6, inf6, g6, st6, v6;
  wire [ 8:0] e6;
  wire [23:0] m6;
  ohls_fp_stage #(
      .W  (38),
      .REG(LATENCY > RANK_NORM)
  ) s_norm (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v5),
      .in_data({sign5, nan5, inf5, g5, st5, e5, m5}),
      .out_valid(v6),
      .out_data({sign6, nan6, inf6, g6, st6, e6, m6})
  );

  // ---- round and pack
  wire [31:0] rounded6;
  ohls_fp_round #(
      .EW(8),
      .MW(23),
      .XW(9)
  ) u_round (
      .sign  (sign6),
      .exp   (e6),
      .mant  (m6),
      .guard (g6),
      .sticky(st6),
      .rm    (2'd0),
      .result(rounded6)
  );
  wire [31:0] res6 = nan6 ? 32'h7FC00000 : inf6 ? {sign6, 8'hFF, 23'd0} : rounded6;

  ohls_fp_stage #(
      .W  (32),
      .REG(LATENCY > RANK_OUT)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v6),
      .in_data(res6),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule
