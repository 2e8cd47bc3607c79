// tb_streams: test wrapper putting several stream-module configurations in one Verilator
// model, so one slow C++ build covers them. Instance i uses bit i of the 1-bit vectors and
// 32-bit slot i of the data vectors (low bits used); see tests/streams.rs for the table.
module tb_streams (
    input  wire clk,
    input  wire rst,
    input  wire [9:0] in_valid,
    output wire [9:0] in_ready,
    input  wire [319:0] in_data,
    output wire [9:0] out_valid,
    input  wire [9:0] out_ready,
    output wire [319:0] out_data,
    output wire [79:0] count,
    output wire [9:0] full,
    output wire [9:0] empty,
    input  wire sp_en,
    input  wire [1:0] sp_in_valid,
    input  wire [31:0] sp_in_data,
    output wire [1:0] sp_out_valid,
    output wire [31:0] sp_out_data
);
    // instance 0: ohls_fifo_reg WIDTH=8 DEPTH=1
    assign out_data[31:8] = {24{1'b0}};
    ohls_fifo_reg #(.WIDTH(8), .DEPTH(1)) u0 (
        .clk(clk), .rst(rst),
        .in_valid(in_valid[0]), .in_ready(in_ready[0]), .in_data(in_data[7:0]),
        .out_valid(out_valid[0]), .out_ready(out_ready[0]), .out_data(out_data[7:0]),
        .count(count[0:0]), .full(full[0]), .empty(empty[0])
    );
    assign count[7:1] = {7{1'b0}};
    // instance 1: ohls_fifo_reg WIDTH=8 DEPTH=2
    assign out_data[63:40] = {24{1'b0}};
    ohls_fifo_reg #(.WIDTH(8), .DEPTH(2)) u1 (
        .clk(clk), .rst(rst),
        .in_valid(in_valid[1]), .in_ready(in_ready[1]), .in_data(in_data[39:32]),
        .out_valid(out_valid[1]), .out_ready(out_ready[1]), .out_data(out_data[39:32]),
        .count(count[9:8]), .full(full[1]), .empty(empty[1])
    );
    assign count[15:10] = {6{1'b0}};
    // instance 2: ohls_fifo_reg WIDTH=16 DEPTH=5
    assign out_data[95:80] = {16{1'b0}};
    ohls_fifo_reg #(.WIDTH(16), .DEPTH(5)) u2 (
        .clk(clk), .rst(rst),
        .in_valid(in_valid[2]), .in_ready(in_ready[2]), .in_data(in_data[79:64]),
        .out_valid(out_valid[2]), .out_ready(out_ready[2]), .out_data(out_data[79:64]),
        .count(count[18:16]), .full(full[2]), .empty(empty[2])
    );
    assign count[23:19] = {5{1'b0}};
    // instance 3: ohls_fifo WIDTH=32 DEPTH=16
    ohls_fifo #(.WIDTH(32), .DEPTH(16)) u3 (
        .clk(clk), .rst(rst),
        .in_valid(in_valid[3]), .in_ready(in_ready[3]), .in_data(in_data[127:96]),
        .out_valid(out_valid[3]), .out_ready(out_ready[3]), .out_data(out_data[127:96]),
        .count(count[28:24]), .full(full[3]), .empty(empty[3])
    );
    assign count[31:29] = {3{1'b0}};
    // instance 4: ohls_fifo_ram WIDTH=32 DEPTH=2
    ohls_fifo_ram #(.WIDTH(32), .DEPTH(2)) u4 (
        .clk(clk), .rst(rst),
        .in_valid(in_valid[4]), .in_ready(in_ready[4]), .in_data(in_data[159:128]),
        .out_valid(out_valid[4]), .out_ready(out_ready[4]), .out_data(out_data[159:128]),
        .count(count[33:32]), .full(full[4]), .empty(empty[4])
    );
    assign count[39:34] = {6{1'b0}};
    // instance 5: ohls_fifo_ram WIDTH=24 DEPTH=37
    assign out_data[191:184] = {8{1'b0}};
    ohls_fifo_ram #(.WIDTH(24), .DEPTH(37)) u5 (
        .clk(clk), .rst(rst),
        .in_valid(in_valid[5]), .in_ready(in_ready[5]), .in_data(in_data[183:160]),
        .out_valid(out_valid[5]), .out_ready(out_ready[5]), .out_data(out_data[183:160]),
        .count(count[45:40]), .full(full[5]), .empty(empty[5])
    );
    assign count[47:46] = {2{1'b0}};
    // instance 6: ohls_fifo WIDTH=32 DEPTH=128
    ohls_fifo #(.WIDTH(32), .DEPTH(128)) u6 (
        .clk(clk), .rst(rst),
        .in_valid(in_valid[6]), .in_ready(in_ready[6]), .in_data(in_data[223:192]),
        .out_valid(out_valid[6]), .out_ready(out_ready[6]), .out_data(out_data[223:192]),
        .count(count[55:48]), .full(full[6]), .empty(empty[6])
    );
    // instance 7: ohls_skid_buffer WIDTH=16
    assign out_data[255:240] = {16{1'b0}};
    ohls_skid_buffer #(.WIDTH(16)) u7 (
        .clk(clk), .rst(rst),
        .in_valid(in_valid[7]), .in_ready(in_ready[7]), .in_data(in_data[239:224]),
        .out_valid(out_valid[7]), .out_ready(out_ready[7]), .out_data(out_data[239:224])
    );
    assign count[63:56] = 8'd0;
    assign full[7] = 1'b0;
    assign empty[7] = 1'b0;
    // instance 8: ohls_pipe_reg WIDTH=16
    assign out_data[287:272] = {16{1'b0}};
    ohls_pipe_reg #(.WIDTH(16)) u8 (
        .clk(clk), .rst(rst),
        .in_valid(in_valid[8]), .in_ready(in_ready[8]), .in_data(in_data[271:256]),
        .out_valid(out_valid[8]), .out_ready(out_ready[8]), .out_data(out_data[271:256])
    );
    assign count[71:64] = 8'd0;
    assign full[8] = 1'b0;
    assign empty[8] = 1'b0;
    // instance 9: ohls_skid_buffer WIDTH=1
    assign out_data[319:289] = {31{1'b0}};
    ohls_skid_buffer #(.WIDTH(1)) u9 (
        .clk(clk), .rst(rst),
        .in_valid(in_valid[9]), .in_ready(in_ready[9]), .in_data(in_data[288:288]),
        .out_valid(out_valid[9]), .out_ready(out_ready[9]), .out_data(out_data[288:288])
    );
    assign count[79:72] = 8'd0;
    assign full[9] = 1'b0;
    assign empty[9] = 1'b0;
    // stall pipelines: DEPTH 1 (16 bits) and DEPTH 4 (16 bits), sharing en
    ohls_stall_pipe #(.WIDTH(16), .DEPTH(1)) sp0 (
        .clk(clk), .rst(rst), .en(sp_en), .in_valid(sp_in_valid[0]), .in_data(sp_in_data[15:0]),
        .out_valid(sp_out_valid[0]), .out_data(sp_out_data[15:0]));
    ohls_stall_pipe #(.WIDTH(16), .DEPTH(4)) sp1 (
        .clk(clk), .rst(rst), .en(sp_en), .in_valid(sp_in_valid[1]), .in_data(sp_in_data[31:16]),
        .out_valid(sp_out_valid[1]), .out_data(sp_out_data[31:16]));
endmodule
