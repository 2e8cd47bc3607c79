// ohls_half_to_fp: binary16 to binary32 conversion (exact), pipelined.
//
// Every half is exactly representable: subnormal halves are normalised, +-0 and +-inf
// keep their sign, and a NaN becomes the canonical quiet NaN 0x7FC00000.
// Latency: LATENCY cycles, 0..1 (default 1, an output register).
// Throughput: one conversion per cycle. Handshake: `en` low freezes the pipeline;
// `in_valid` travels with the operation to `out_valid`.
//
// Parameters:
//   LATENCY - 0 or 1
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bit)
//   en        - pipeline enable
//   in_valid  - an operation is presented on h
//   h         - the half (binary16 bit pattern)
//   out_valid - result holds a finished conversion
//   result    - the float (binary32)
module ohls_half_to_fp #(
    parameter LATENCY = 1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [15:0] h,
    output wire        out_valid,
    output wire [31:0] result
);
  wire [4:0] eh = h[14:10];
  wire [9:0] mh = h[9:0];
  wire [3:0] lz;
  ohls_fp_lzc #(
      .W (10),
      .CW(4)
  ) u_lzc (
      .x    (mh),
      .count(lz)
  );
  // A subnormal half m * 2^-24 with its top one at bit 9 - lz is 2^(-15 - lz) * 1.f.
  wire [9:0] sub_m = mh << (lz + 4'd1);
  wire [31:0] subn = {h[15], 8'd112 - {4'b0000, lz}, sub_m, 13'd0};
  wire [31:0] norm = {h[15], {3'b000, eh} + 8'd112, mh, 13'd0};
  wire [31:0] res = (&eh) ? ((|mh) ? 32'h7FC00000 : {h[15], 31'h7F800000}) :
      (eh != 5'd0) ? norm : (|mh) ? subn : {h[15], 31'd0};

  ohls_fp_stage #(
      .W  (32),
      .REG(LATENCY > 0)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data(res),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule
