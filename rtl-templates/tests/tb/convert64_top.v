// convert64_top: Verilator test wrapper of the 64-bit integer conversion units
// (ohls_fp_to_int and ohls_int_to_fp at WIDTH = 64), each at two latencies fed the same
// operands. Not a template.
module convert64_top (
    input wire clk,
    input wire rst,
    input wire en,

    input  wire        ti_v,
    input  wire [31:0] ti_a,
    input  wire [ 1:0] ti_rm,
    input  wire        ti_sgn,
    input  wire        ti_sat,
    output wire        ti_d_ov,
    output wire [63:0] ti_d_r,
    output wire        ti_x_ov,
    output wire [63:0] ti_x_r,

    input  wire        itf_v,
    input  wire [63:0] itf_x,
    input  wire        itf_sgn,
    input  wire [ 1:0] itf_rm,
    output wire        itf_d_ov,
    output wire [31:0] itf_d_r,
    output wire        itf_x_ov,
    output wire [31:0] itf_x_r
);
  ohls_fp_to_int #(.LATENCY(2), .WIDTH(64)) u_ti_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(ti_v), .a(ti_a), .rm(ti_rm),
      .is_signed(ti_sgn), .sat(ti_sat), .out_valid(ti_d_ov), .result(ti_d_r));
  ohls_fp_to_int #(.LATENCY(0), .WIDTH(64)) u_ti_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(ti_v), .a(ti_a), .rm(ti_rm),
      .is_signed(ti_sgn), .sat(ti_sat), .out_valid(ti_x_ov), .result(ti_x_r));
  ohls_int_to_fp #(.LATENCY(2), .WIDTH(64)) u_itf_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(itf_v), .x(itf_x), .is_signed(itf_sgn),
      .rm(itf_rm), .out_valid(itf_d_ov), .result(itf_d_r));
  ohls_int_to_fp #(.LATENCY(3), .WIDTH(64)) u_itf_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(itf_v), .x(itf_x), .is_signed(itf_sgn),
      .rm(itf_rm), .out_valid(itf_x_ov), .result(itf_x_r));
endmodule
