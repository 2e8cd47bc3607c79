// tb_delay: test wrapper with several ohls_delay_ram configurations in one Verilator
// model, each with its own enable: the smallest depth, an odd width and depth, a deep
// 64-bit line (the size a DE10-Nano memory latency makes) and a 1-bit line.
module tb_delay (
    input  wire        clk,
    input  wire        rst,
    input  wire [3:0]  en,
    input  wire [31:0] in0,
    output wire [31:0] out0,
    input  wire [12:0] in1,
    output wire [12:0] out1,
    input  wire [63:0] in2,
    output wire [63:0] out2,
    input  wire        in3,
    output wire        out3
);
    ohls_delay_ram #(.WIDTH(32), .DEPTH(2)) d0 (
        .clk(clk), .rst(rst), .en(en[0]), .in(in0), .out(out0));
    ohls_delay_ram #(.WIDTH(13), .DEPTH(37)) d1 (
        .clk(clk), .rst(rst), .en(en[1]), .in(in1), .out(out1));
    ohls_delay_ram #(.WIDTH(64), .DEPTH(240)) d2 (
        .clk(clk), .rst(rst), .en(en[2]), .in(in2), .out(out2));
    ohls_delay_ram #(.WIDTH(1), .DEPTH(16)) d3 (
        .clk(clk), .rst(rst), .en(en[3]), .in(in3), .out(out3));
endmodule
