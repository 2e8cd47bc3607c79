// dp_top: Verilator test wrapper of the binary64 units. Each pipelined unit is held twice,
// at its default latency (`_d`) and with no registers (`_z`, LATENCY 0), both fed the same
// operands; the iterative divider is held NDIV times, so many divisions run at once. Not a
// template.
module dp_top #(
    parameter NDIV = 32
) (
    input wire clk,
    input wire rst,
    input wire en,

    input  wire        add_v,
    input  wire [63:0] add_a,
    input  wire [63:0] add_b,
    input  wire        add_sub,
    output wire        add_d_ov,
    output wire [63:0] add_d_r,
    output wire        add_z_ov,
    output wire [63:0] add_z_r,

    input  wire        mul_v,
    input  wire [63:0] mul_a,
    input  wire [63:0] mul_b,
    output wire        mul_d_ov,
    output wire [63:0] mul_d_r,
    output wire        mul_z_ov,
    output wire [63:0] mul_z_r,

    input  wire        cmp_v,
    input  wire [63:0] cmp_a,
    input  wire [63:0] cmp_b,
    output wire        cmp_d_ov,
    output wire [ 3:0] cmp_d_r,
    output wire        cmp_z_ov,
    output wire [ 3:0] cmp_z_r,

    input  wire        fi_v,
    input  wire [63:0] fi_x,
    input  wire        fi_sgn,
    input  wire [ 1:0] fi_rm,
    output wire        fi_d_ov,
    output wire [63:0] fi_d_r,
    output wire        fi_z_ov,
    output wire [63:0] fi_z_r,

    input  wire        ti_v,
    input  wire [63:0] ti_a,
    input  wire [ 1:0] ti_rm,
    input  wire        ti_sgn,
    input  wire        ti_sat,
    input  wire [ 1:0] ti_size,
    output wire        ti_d_ov,
    output wire [63:0] ti_d_r,
    output wire        ti_z_ov,
    output wire [63:0] ti_z_r,

    input  wire        ts_v,
    input  wire [63:0] ts_a,
    input  wire [ 1:0] ts_rm,
    output wire        ts_d_ov,
    output wire [31:0] ts_d_r,
    output wire        ts_z_ov,
    output wire [31:0] ts_z_r,

    input  wire        th_v,
    input  wire [63:0] th_a,
    input  wire [ 1:0] th_rm,
    output wire        th_d_ov,
    output wire [15:0] th_d_r,
    output wire        th_z_ov,
    output wire [15:0] th_z_r,

    input  wire        fs_v,
    input  wire [31:0] fs_a,
    output wire        fs_d_ov,
    output wire [63:0] fs_d_r,
    output wire        fs_z_ov,
    output wire [63:0] fs_z_r,

    input  wire [  NDIV-1:0] div_v,
    input  wire [64*NDIV-1:0] div_a,
    input  wire [64*NDIV-1:0] div_b,
    output wire [  NDIV-1:0] div_ov,
    output wire [64*NDIV-1:0] div_r
);
  ohls_dp_add add_d (.clk(clk), .rst(rst), .en(en), .in_valid(add_v), .a(add_a), .b(add_b),
      .sub(add_sub), .out_valid(add_d_ov), .result(add_d_r));
  ohls_dp_add #(.LATENCY(0)) add_z (.clk(clk), .rst(rst), .en(en), .in_valid(add_v),
      .a(add_a), .b(add_b), .sub(add_sub), .out_valid(add_z_ov), .result(add_z_r));

  ohls_dp_mul mul_d (.clk(clk), .rst(rst), .en(en), .in_valid(mul_v), .a(mul_a), .b(mul_b),
      .out_valid(mul_d_ov), .result(mul_d_r));
  ohls_dp_mul #(.LATENCY(0)) mul_z (.clk(clk), .rst(rst), .en(en), .in_valid(mul_v),
      .a(mul_a), .b(mul_b), .out_valid(mul_z_ov), .result(mul_z_r));

  ohls_dp_cmp cmp_d (.clk(clk), .rst(rst), .en(en), .in_valid(cmp_v), .a(cmp_a), .b(cmp_b),
      .out_valid(cmp_d_ov), .eq(cmp_d_r[0]), .lt(cmp_d_r[1]), .le(cmp_d_r[2]),
      .unordered(cmp_d_r[3]));
  ohls_dp_cmp #(.LATENCY(0)) cmp_z (.clk(clk), .rst(rst), .en(en), .in_valid(cmp_v),
      .a(cmp_a), .b(cmp_b), .out_valid(cmp_z_ov), .eq(cmp_z_r[0]), .lt(cmp_z_r[1]),
      .le(cmp_z_r[2]), .unordered(cmp_z_r[3]));

  ohls_dp_from_int fi_d (.clk(clk), .rst(rst), .en(en), .in_valid(fi_v), .x(fi_x),
      .is_signed(fi_sgn), .rm(fi_rm), .out_valid(fi_d_ov), .result(fi_d_r));
  ohls_dp_from_int #(.LATENCY(0)) fi_z (.clk(clk), .rst(rst), .en(en), .in_valid(fi_v),
      .x(fi_x), .is_signed(fi_sgn), .rm(fi_rm), .out_valid(fi_z_ov), .result(fi_z_r));

  ohls_dp_to_int ti_d (.clk(clk), .rst(rst), .en(en), .in_valid(ti_v), .a(ti_a), .rm(ti_rm),
      .is_signed(ti_sgn), .sat(ti_sat), .size(ti_size), .out_valid(ti_d_ov),
      .result(ti_d_r));
  ohls_dp_to_int #(.LATENCY(0)) ti_z (.clk(clk), .rst(rst), .en(en), .in_valid(ti_v),
      .a(ti_a), .rm(ti_rm), .is_signed(ti_sgn), .sat(ti_sat), .size(ti_size),
      .out_valid(ti_z_ov), .result(ti_z_r));

  ohls_dp_to_fp32 ts_d (.clk(clk), .rst(rst), .en(en), .in_valid(ts_v), .a(ts_a),
      .rm(ts_rm), .out_valid(ts_d_ov), .result(ts_d_r));
  ohls_dp_to_fp32 #(.LATENCY(0)) ts_z (.clk(clk), .rst(rst), .en(en), .in_valid(ts_v),
      .a(ts_a), .rm(ts_rm), .out_valid(ts_z_ov), .result(ts_z_r));

  ohls_dp_to_half th_d (.clk(clk), .rst(rst), .en(en), .in_valid(th_v), .a(th_a),
      .rm(th_rm), .out_valid(th_d_ov), .result(th_d_r));
  ohls_dp_to_half #(.LATENCY(0)) th_z (.clk(clk), .rst(rst), .en(en), .in_valid(th_v),
      .a(th_a), .rm(th_rm), .out_valid(th_z_ov), .result(th_z_r));

  ohls_dp_from_fp32 fs_d (.clk(clk), .rst(rst), .en(en), .in_valid(fs_v), .a(fs_a),
      .out_valid(fs_d_ov), .result(fs_d_r));
  ohls_dp_from_fp32 #(.LATENCY(0)) fs_z (.clk(clk), .rst(rst), .en(en), .in_valid(fs_v),
      .a(fs_a), .out_valid(fs_z_ov), .result(fs_z_r));

  genvar i;
  generate
    for (i = 0; i < NDIV; i = i + 1) begin : g_div
      ohls_dp_div u_div (.clk(clk), .rst(rst), .en(en), .in_valid(div_v[i]),
          .a(div_a[64*i+:64]), .b(div_b[64*i+:64]), .out_valid(div_ov[i]),
          .result(div_r[64*i+:64]));
    end
  endgenerate
endmodule
