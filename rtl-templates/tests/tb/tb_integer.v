// tb_integer: test wrapper with every integer unit at WIDTH 8, 16, 32, 64 (signed and
// unsigned where it matters) in one Verilator model. Per width W: operands a_W, b_W, sub_W;
// the pipelined units share en / in_valid.
module tb_integer (
    input  wire clk,
    input  wire rst,
    input  wire en,
    input  wire in_valid,
    input  wire [7:0] a_8,
    input  wire [7:0] b_8,
    input  wire sub_8,
    output wire divs_v_8,
    output wire [7:0] divs_q_8,
    output wire [7:0] divs_r_8,
    output wire muls_v_8,
    output wire [7:0] muls_hi_8,
    output wire [7:0] sats_8,
    output wire divu_v_8,
    output wire [7:0] divu_q_8,
    output wire [7:0] divu_r_8,
    output wire mulu_v_8,
    output wire [7:0] mulu_hi_8,
    output wire [7:0] satu_8,
    output wire [3:0] clz_8,
    output wire [3:0] pop_8,
    output wire [7:0] rot_8,
    input  wire [15:0] a_16,
    input  wire [15:0] b_16,
    input  wire sub_16,
    output wire divs_v_16,
    output wire [15:0] divs_q_16,
    output wire [15:0] divs_r_16,
    output wire muls_v_16,
    output wire [15:0] muls_hi_16,
    output wire [15:0] sats_16,
    output wire divu_v_16,
    output wire [15:0] divu_q_16,
    output wire [15:0] divu_r_16,
    output wire mulu_v_16,
    output wire [15:0] mulu_hi_16,
    output wire [15:0] satu_16,
    output wire [4:0] clz_16,
    output wire [4:0] pop_16,
    output wire [15:0] rot_16,
    input  wire [31:0] a_32,
    input  wire [31:0] b_32,
    input  wire sub_32,
    output wire divs_v_32,
    output wire [31:0] divs_q_32,
    output wire [31:0] divs_r_32,
    output wire muls_v_32,
    output wire [31:0] muls_hi_32,
    output wire [31:0] sats_32,
    output wire divu_v_32,
    output wire [31:0] divu_q_32,
    output wire [31:0] divu_r_32,
    output wire mulu_v_32,
    output wire [31:0] mulu_hi_32,
    output wire [31:0] satu_32,
    output wire [5:0] clz_32,
    output wire [5:0] pop_32,
    output wire [31:0] rot_32,
    input  wire [63:0] a_64,
    input  wire [63:0] b_64,
    input  wire sub_64,
    output wire divs_v_64,
    output wire [63:0] divs_q_64,
    output wire [63:0] divs_r_64,
    output wire muls_v_64,
    output wire [63:0] muls_hi_64,
    output wire [63:0] sats_64,
    output wire divu_v_64,
    output wire [63:0] divu_q_64,
    output wire [63:0] divu_r_64,
    output wire mulu_v_64,
    output wire [63:0] mulu_hi_64,
    output wire [63:0] satu_64,
    output wire [6:0] clz_64,
    output wire [6:0] pop_64,
    output wire [63:0] rot_64
);
    ohls_div #(.WIDTH(8), .SIGNED(1)) divs_8 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .dividend(a_8), .divisor(b_8), .out_valid(divs_v_8), .quotient(divs_q_8), .remainder(divs_r_8));
    ohls_mul_hi #(.WIDTH(8), .SIGNED(1)) muls_8 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .a(a_8), .b(b_8), .out_valid(muls_v_8), .hi(muls_hi_8));
    ohls_addsub_sat #(.WIDTH(8), .SIGNED(1)) u_sats_8 (.a(a_8), .b(b_8), .sub(sub_8), .y(sats_8));
    ohls_div #(.WIDTH(8), .SIGNED(0)) divu_8 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .dividend(a_8), .divisor(b_8), .out_valid(divu_v_8), .quotient(divu_q_8), .remainder(divu_r_8));
    ohls_mul_hi #(.WIDTH(8), .SIGNED(0)) mulu_8 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .a(a_8), .b(b_8), .out_valid(mulu_v_8), .hi(mulu_hi_8));
    ohls_addsub_sat #(.WIDTH(8), .SIGNED(0)) u_satu_8 (.a(a_8), .b(b_8), .sub(sub_8), .y(satu_8));
    ohls_clz #(.WIDTH(8)) clz8 (.x(a_8), .count(clz_8));
    ohls_popcount #(.WIDTH(8)) pop8 (.x(a_8), .count(pop_8));
    ohls_rotate #(.WIDTH(8)) rot8 (.x(a_8), .amount(b_8), .y(rot_8));
    ohls_div #(.WIDTH(16), .SIGNED(1)) divs_16 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .dividend(a_16), .divisor(b_16), .out_valid(divs_v_16), .quotient(divs_q_16), .remainder(divs_r_16));
    ohls_mul_hi #(.WIDTH(16), .SIGNED(1)) muls_16 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .a(a_16), .b(b_16), .out_valid(muls_v_16), .hi(muls_hi_16));
    ohls_addsub_sat #(.WIDTH(16), .SIGNED(1)) u_sats_16 (.a(a_16), .b(b_16), .sub(sub_16), .y(sats_16));
    ohls_div #(.WIDTH(16), .SIGNED(0)) divu_16 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .dividend(a_16), .divisor(b_16), .out_valid(divu_v_16), .quotient(divu_q_16), .remainder(divu_r_16));
    ohls_mul_hi #(.WIDTH(16), .SIGNED(0)) mulu_16 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .a(a_16), .b(b_16), .out_valid(mulu_v_16), .hi(mulu_hi_16));
    ohls_addsub_sat #(.WIDTH(16), .SIGNED(0)) u_satu_16 (.a(a_16), .b(b_16), .sub(sub_16), .y(satu_16));
    ohls_clz #(.WIDTH(16)) clz16 (.x(a_16), .count(clz_16));
    ohls_popcount #(.WIDTH(16)) pop16 (.x(a_16), .count(pop_16));
    ohls_rotate #(.WIDTH(16)) rot16 (.x(a_16), .amount(b_16), .y(rot_16));
    ohls_div #(.WIDTH(32), .SIGNED(1)) divs_32 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .dividend(a_32), .divisor(b_32), .out_valid(divs_v_32), .quotient(divs_q_32), .remainder(divs_r_32));
    ohls_mul_hi #(.WIDTH(32), .SIGNED(1)) muls_32 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .a(a_32), .b(b_32), .out_valid(muls_v_32), .hi(muls_hi_32));
    ohls_addsub_sat #(.WIDTH(32), .SIGNED(1)) u_sats_32 (.a(a_32), .b(b_32), .sub(sub_32), .y(sats_32));
    ohls_div #(.WIDTH(32), .SIGNED(0)) divu_32 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .dividend(a_32), .divisor(b_32), .out_valid(divu_v_32), .quotient(divu_q_32), .remainder(divu_r_32));
    ohls_mul_hi #(.WIDTH(32), .SIGNED(0)) mulu_32 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .a(a_32), .b(b_32), .out_valid(mulu_v_32), .hi(mulu_hi_32));
    ohls_addsub_sat #(.WIDTH(32), .SIGNED(0)) u_satu_32 (.a(a_32), .b(b_32), .sub(sub_32), .y(satu_32));
    ohls_clz #(.WIDTH(32)) clz32 (.x(a_32), .count(clz_32));
    ohls_popcount #(.WIDTH(32)) pop32 (.x(a_32), .count(pop_32));
    ohls_rotate #(.WIDTH(32)) rot32 (.x(a_32), .amount(b_32), .y(rot_32));
    ohls_div #(.WIDTH(64), .SIGNED(1)) divs_64 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .dividend(a_64), .divisor(b_64), .out_valid(divs_v_64), .quotient(divs_q_64), .remainder(divs_r_64));
    ohls_mul_hi #(.WIDTH(64), .SIGNED(1)) muls_64 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .a(a_64), .b(b_64), .out_valid(muls_v_64), .hi(muls_hi_64));
    ohls_addsub_sat #(.WIDTH(64), .SIGNED(1)) u_sats_64 (.a(a_64), .b(b_64), .sub(sub_64), .y(sats_64));
    ohls_div #(.WIDTH(64), .SIGNED(0)) divu_64 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .dividend(a_64), .divisor(b_64), .out_valid(divu_v_64), .quotient(divu_q_64), .remainder(divu_r_64));
    ohls_mul_hi #(.WIDTH(64), .SIGNED(0)) mulu_64 (.clk(clk), .rst(rst), .en(en), .in_valid(in_valid),
        .a(a_64), .b(b_64), .out_valid(mulu_v_64), .hi(mulu_hi_64));
    ohls_addsub_sat #(.WIDTH(64), .SIGNED(0)) u_satu_64 (.a(a_64), .b(b_64), .sub(sub_64), .y(satu_64));
    ohls_clz #(.WIDTH(64)) clz64 (.x(a_64), .count(clz_64));
    ohls_popcount #(.WIDTH(64)) pop64 (.x(a_64), .count(pop_64));
    ohls_rotate #(.WIDTH(64)) rot64 (.x(a_64), .amount(b_64), .y(rot_64));
endmodule
