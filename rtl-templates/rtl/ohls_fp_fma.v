// ohls_fp_fma: IEEE-754 binary32 fused multiply-add a * b + c with a single rounding
// (round to nearest even), pipelined.
//
// Subnormal inputs and outputs are exact (no flush to zero). NaN operands, inf * 0 and
// inf - inf give the canonical quiet NaN 0x7FC00000. An exact zero result is +0 unless
// a * b and c are both zeros of negative sign; a zero product gives c unchanged.
//
// Datapath: the operands of the product are normalised (subnormals), the exact 48-bit
// product comes from the `*` operator (one 27x27 DSP block), c is aligned against it in
// a 76-bit window with a sticky bit (when c is so large that the product lies below its
// rounding bits, the product is replaced by a sticky bit instead), the two are added or
// subtracted (negated if c was larger), then leading zeros are counted and shifted out
// (no lower than exponent 1), subnormal results are shifted right, rounded and packed.
// Latency: LATENCY cycles, 0..7 (default 5); registers go to the cuts in the order
// output, after the product, after the add, after the alignment, after normalisation,
// after the operand normalisation, input.
// Throughput: one operation per cycle (II = 1).
// Handshake: `en` low freezes the whole pipeline; `in_valid` travels with the operation
// and comes out as `out_valid` LATENCY enabled cycles later.
//
// Parameters:
//   LATENCY - pipeline depth in cycles, 0..7
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a, b, c
//   a, b, c   - operands (binary32 bit patterns)
//   out_valid - result holds a finished operation
//   result    - a * b + c rounded once (binary32)
module ohls_fp_fma #(
    parameter LATENCY = 5
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [31:0] a,
    input  wire [31:0] b,
    input  wire [31:0] c,
    output wire        out_valid,
    output wire [31:0] result
);
  localparam RANK_OUT = 0, RANK_MUL = 1, RANK_ADD = 2, RANK_ALIGN = 3, RANK_NORM = 4;
  localparam RANK_PRE = 5, RANK_IN = 6;

  wire [31:0] a0, b0, c0;
  wire        v0;
  ohls_fp_stage #(
      .W  (96),
      .REG(LATENCY > RANK_IN)
  ) s_in (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data({a, b, c}),
      .out_valid(v0),
      .out_data({a0, b0, c0})
  );

  // ---- classify, special results, normalise the product operands
  wire a_e0 = a0[30:23] == 8'd0, b_e0 = b0[30:23] == 8'd0, c_e0 = c0[30:23] == 8'd0;
  wire a_max = &a0[30:23], b_max = &b0[30:23], c_max = &c0[30:23];
  wire a_nan = a_max & (|a0[22:0]), b_nan = b_max & (|b0[22:0]), c_nan = c_max & (|c0[22:0]);
  wire a_inf = a_max & ~(|a0[22:0]), b_inf = b_max & ~(|b0[22:0]), c_inf = c_max & ~(|c0[22:0]);
  wire a_zero = a_e0 & ~(|a0[22:0]), b_zero = b_e0 & ~(|b0[22:0]), c_zero = c_e0 & ~(|c0[22:0]);
  wire sp0 = a0[31] ^ b0[31];
  wire sc0 = c0[31];
  wire p_inf = a_inf | b_inf;
  wire p_zero = a_zero | b_zero;
  wire nan0 = a_nan | b_nan | c_nan | (a_inf & b_zero) | (b_inf & a_zero) |
      (p_inf & c_inf & (sp0 ^ sc0));
  // Results that bypass the datapath: {is special, value}
  wire [32:0] spec0 = nan0 ? {1'b1, 32'h7FC00000} :
      p_inf ? {1'b1, sp0, 31'h7F800000} :
      c_inf ? {1'b1, sc0, 31'h7F800000} :
      (p_zero & c_zero) ? {1'b1, sp0 & sc0, 31'd0} :
      p_zero ? {1'b1, c0} : 33'd0;
  wire [4:0] lza, lzb;
  ohls_fp_lzc #(
      .W (24),
      .CW(5)
  ) u_lza (
      .x    ({~a_e0, a0[22:0]}),
      .count(lza)
  );
  ohls_fp_lzc #(
      .W (24),
      .CW(5)
  ) u_lzb (
      .x    ({~b_e0, b0[22:0]}),
      .count(lzb)
  );
  wire [23:0] ma0 = {~a_e0, a0[22:0]} << lza;
  wire [23:0] mb0 = {~b_e0, b0[22:0]} << lzb;
  wire [11:0] ea0 = {4'd0, a_e0 ? 8'd1 : a0[30:23]} - {7'd0, lza};
  wire [11:0] eb0 = {4'd0, b_e0 ? 8'd1 : b0[30:23]} - {7'd0, lzb};
  wire [ 7:0] ec0 = c_e0 ? 8'd1 : c0[30:23];
  wire [23:0] mc0 = {~c_e0, c0[22:0]};

  wire [32:0] spec1;
  wire [23:0] ma1, mb1, mc1;
  wire [11:0] ea1, eb1;
  wire [ 7:0] ec1;
  wire sp1, sc1, v1;
  ohls_fp_stage #(
      .W  (139),
      .REG(LATENCY > RANK_PRE)
  ) s_pre (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v0),
      .in_data({spec0, ma0, mb0, mc0, ea0, eb0, ec0, sp0, sc0}),
      .out_valid(v1),
      .out_data({spec1, ma1, mb1, mc1, ea1, eb1, ec1, sp1, sc1})
  );

  // ---- product, and where c goes in the window. Window bit 0 is 2 bits below the
  // product's last bit; c's last bit sits at 2 + d, d = (c's ulp exponent) - (product's).
  wire [47:0] p1 = ma1 * mb1;
  wire [11:0] d1 = {4'd0, ec1} - ea1 - eb1 + 12'd150;
  // c more than 50 places up: the product is below c's rounding bits, a sticky bit will do;
  // c's last bit is then pinned to window bit 52 (its top at bit 75).
  wire big1 = ~d1[11] & (d1 > 12'd50);
  wire [11:0] sr_full1 = 12'd50 - d1;
  wire [6:0] sr1 = big1 ? 7'd0 : (sr_full1 > 12'd127) ? 7'd127 : sr_full1[6:0];
  // Biased exponent that window bit 76 (the carry position) has.
  wire [11:0] etop1 = big1 ? ({4'd0, ec1} + 12'd1) : (ea1 + eb1 - 12'd99);

  wire [32:0] spec2;
  wire [47:0] p2;
  wire [23:0] mc2;
  wire [11:0] etop2;
  wire [ 6:0] sr2;
  wire big2, sp2, sc2, v2;
  ohls_fp_stage #(
      .W  (127),
      .REG(LATENCY > RANK_MUL)
  ) s_mul (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v1),
      .in_data({spec1, p1, mc1, etop1, sr1, big1, sp1, sc1}),
      .out_valid(v2),
      .out_data({spec2, p2, mc2, etop2, sr2, big2, sp2, sc2})
  );

  // ---- align c in the window
  wire [75:0] cw2;
  ohls_fp_shr_sticky #(
      .W (76),
      .SW(7)
  ) u_align (
      .x ({mc2, 52'd0}),
      .sh(sr2),
      .y (cw2)
  );
  wire [75:0] pw2 = big2 ? {75'd0, |p2} : {26'd0, p2, 2'b00};

  wire [32:0] spec3;
  wire [75:0] pw3, cw3;
  wire [11:0] etop3;
  wire sp3, sc3, v3;
  ohls_fp_stage #(
      .W  (199),
      .REG(LATENCY > RANK_ALIGN)
  ) s_align (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v2),
      .in_data({spec2, pw2, cw2, etop2, sp2, sc2}),
      .out_valid(v3),
      .out_data({spec3, pw3, cw3, etop3, sp3, sc3})
  );

  // ---- add, or subtract and take the magnitude
  wire        eff3 = sp3 ^ sc3;
  wire [76:0] sum3 = {1'b0, pw3} + {1'b0, cw3};
  wire [76:0] dif3 = {1'b0, pw3} - {1'b0, cw3};
  wire        neg3 = eff3 & dif3[76];
  wire [76:0] mag3 = ~eff3 ? sum3 : neg3 ? (77'd0 - dif3) : dif3;
  // An exact cancellation of a nonzero product is +0 (zero products never get here).
  wire        sign3 = (mag3 == 77'd0) ? 1'b0 : neg3 ? sc3 : sp3;

  wire [32:0] spec4;
  wire [76:0] mag4;
  wire [11:0] etop4;
  wire sign4, v4;
  ohls_fp_stage #(
      .W  (123),
      .REG(LATENCY > RANK_ADD)
  ) s_add (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v3),
      .in_data({spec3, mag3, etop3, sign3}),
      .out_valid(v4),
      .out_data({spec4, mag4, etop4, sign4})
  );

  // ---- normalise left, not below exponent 1
  wire [6:0] lz4;
  ohls_fp_lzc #(
      .W (77),
      .CW(7)
  ) u_lzc (
      .x    (mag4),
      .count(lz4)
  );
  wire        pos4 = ~etop4[11] & (etop4 != 12'd0);
  wire [11:0] room4 = etop4 - 12'd1;
  wire [ 6:0] sh4 = ~pos4 ? 7'd0 : (room4 < {5'd0, lz4}) ? room4[6:0] : lz4;
  wire [76:0] n4 = mag4 << sh4;
  wire [11:0] e4 = etop4 - {5'd0, sh4};

  wire [32:0] spec5;
  wire [27:0] n5;
  wire [11:0] e5;
  wire sign5, v5;
  ohls_fp_stage #(
      .W  (74),
      .REG(LATENCY > RANK_NORM)
  ) s_norm (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v4),
      .in_data({spec4, n4[76:50], |n4[49:0], e4, sign4}),
      .out_valid(v5),
      .out_data({spec5, n5, e5, sign5})
  );

  // ---- subnormal shift, round, pack
  wire [11:0] ed5;
  wire [27:0] md5;
  ohls_fp_denorm #(
      .W (28),
      .XW(12)
  ) u_den (
      .exp   (e5),
      .mant  (n5),
      .exp_o (ed5),
      .mant_o(md5)
  );
  wire [31:0] rounded5;
  ohls_fp_round #(
      .EW(8),
      .MW(23),
      .XW(12)
  ) u_round (
      .sign  (sign5),
      .exp   (ed5),
      .mant  (md5[27:4]),
      .guard (md5[3]),
      .sticky(|md5[2:0]),
      .rm    (2'd0),
      .result(rounded5)
  );
  wire [31:0] res5 = spec5[32] ? spec5[31:0] : rounded5;

  ohls_fp_stage #(
      .W  (32),
      .REG(LATENCY > RANK_OUT)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v5),
      .in_data(res5),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule
