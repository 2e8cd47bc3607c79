// fp_top: Verilator test wrapper holding every float unit twice, once at its default
// latency (`_d`) and once at another latency (`_x`), both fed the same operands, so one
// C++ model tests every unit and two pipeline depths in one build. Not a template.
module fp_top (
    input wire clk,
    input wire rst,
    input wire en,

    input  wire        add_v,
    input  wire [31:0] add_a,
    input  wire [31:0] add_b,
    input  wire        add_sub,
    output wire        add_d_ov,
    output wire [31:0] add_d_r,
    output wire        add_x_ov,
    output wire [31:0] add_x_r,
    output wire [ 7:0] add_d_lat,
    output wire [ 7:0] add_x_lat,

    input  wire        mul_v,
    input  wire [31:0] mul_a,
    input  wire [31:0] mul_b,
    output wire        mul_d_ov,
    output wire [31:0] mul_d_r,
    output wire        mul_x_ov,
    output wire [31:0] mul_x_r,
    output wire [ 7:0] mul_d_lat,
    output wire [ 7:0] mul_x_lat,

    input  wire        cmp_v,
    input  wire [31:0] cmp_a,
    input  wire [31:0] cmp_b,
    output wire        cmp_d_ov,
    output wire [ 3:0] cmp_d_r,
    output wire        cmp_x_ov,
    output wire [ 3:0] cmp_x_r,
    output wire [ 7:0] cmp_d_lat,
    output wire [ 7:0] cmp_x_lat,

    input  wire        mm_v,
    input  wire [31:0] mm_a,
    input  wire [31:0] mm_b,
    input  wire        mm_max,
    output wire        mm_d_ov,
    output wire [31:0] mm_d_r,
    output wire        mm_x_ov,
    output wire [31:0] mm_x_r,
    output wire [ 7:0] mm_d_lat,
    output wire [ 7:0] mm_x_lat
);
  localparam [7:0] ADD_D = 6, ADD_X = 0;
  assign add_d_lat = ADD_D;
  assign add_x_lat = ADD_X;
  ohls_fp_add #(.LATENCY(ADD_D)) add_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(add_v), .a(add_a), .b(add_b), .sub(add_sub),
      .out_valid(add_d_ov), .result(add_d_r));
  ohls_fp_add #(.LATENCY(ADD_X)) add_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(add_v), .a(add_a), .b(add_b), .sub(add_sub),
      .out_valid(add_x_ov), .result(add_x_r));

  localparam [7:0] MUL_D = 4, MUL_X = 5;
  assign mul_d_lat = MUL_D;
  assign mul_x_lat = MUL_X;
  ohls_fp_mul #(.LATENCY(MUL_D)) mul_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(mul_v), .a(mul_a), .b(mul_b),
      .out_valid(mul_d_ov), .result(mul_d_r));
  ohls_fp_mul #(.LATENCY(MUL_X)) mul_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(mul_v), .a(mul_a), .b(mul_b),
      .out_valid(mul_x_ov), .result(mul_x_r));

  localparam [7:0] CMP_D = 1, CMP_X = 0;
  assign cmp_d_lat = CMP_D;
  assign cmp_x_lat = CMP_X;
  ohls_fp_cmp #(.LATENCY(CMP_D)) cmp_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(cmp_v), .a(cmp_a), .b(cmp_b),
      .out_valid(cmp_d_ov), .unordered(cmp_d_r[3]), .le(cmp_d_r[2]), .lt(cmp_d_r[1]),
      .eq(cmp_d_r[0]));
  ohls_fp_cmp #(.LATENCY(CMP_X)) cmp_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(cmp_v), .a(cmp_a), .b(cmp_b),
      .out_valid(cmp_x_ov), .unordered(cmp_x_r[3]), .le(cmp_x_r[2]), .lt(cmp_x_r[1]),
      .eq(cmp_x_r[0]));

  localparam [7:0] MM_D = 1, MM_X = 0;
  assign mm_d_lat = MM_D;
  assign mm_x_lat = MM_X;
  ohls_fp_minmax #(.LATENCY(MM_D)) mm_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(mm_v), .a(mm_a), .b(mm_b), .is_max(mm_max),
      .out_valid(mm_d_ov), .result(mm_d_r));
  ohls_fp_minmax #(.LATENCY(MM_X)) mm_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(mm_v), .a(mm_a), .b(mm_b), .is_max(mm_max),
      .out_valid(mm_x_ov), .result(mm_x_r));
endmodule
