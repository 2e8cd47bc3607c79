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
    output wire [ 7:0] mul_x_lat
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
endmodule
