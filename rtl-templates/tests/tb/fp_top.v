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
    output wire [ 7:0] mm_x_lat,

    input  wire        ti_v,
    input  wire [31:0] ti_a,
    input  wire [ 1:0] ti_rm,
    input  wire        ti_sgn,
    input  wire        ti_sat,
    output wire        ti_d_ov,
    output wire [31:0] ti_d_r,
    output wire        ti_x_ov,
    output wire [31:0] ti_x_r,
    output wire [ 7:0] ti_d_lat,
    output wire [ 7:0] ti_x_lat,

    input  wire        itf_v,
    input  wire [31:0] itf_in,
    input  wire [ 1:0] itf_rm,
    input  wire        itf_sgn,
    output wire        itf_d_ov,
    output wire [31:0] itf_d_r,
    output wire        itf_x_ov,
    output wire [31:0] itf_x_r,
    output wire [ 7:0] itf_d_lat,
    output wire [ 7:0] itf_x_lat,

    input  wire        th_v,
    input  wire [31:0] th_a,
    input  wire [ 1:0] th_rm,
    output wire        th_d_ov,
    output wire [15:0] th_d_r,
    output wire        th_x_ov,
    output wire [15:0] th_x_r,
    output wire [ 7:0] th_d_lat,
    output wire [ 7:0] th_x_lat,

    input  wire        hf_v,
    input  wire [15:0] hf_h,
    output wire        hf_d_ov,
    output wire [31:0] hf_d_r,
    output wire        hf_x_ov,
    output wire [31:0] hf_x_r,
    output wire [ 7:0] hf_d_lat,
    output wire [ 7:0] hf_x_lat,

    input  wire        div_v,
    input  wire [31:0] div_a,
    input  wire [31:0] div_b,
    output wire        div_d_ov,
    output wire [31:0] div_d_r,
    output wire        div_x_ov,
    output wire [31:0] div_x_r,
    output wire [ 7:0] div_d_lat,
    output wire [ 7:0] div_x_lat,

    input  wire        sqrt_v,
    input  wire [31:0] sqrt_a,
    output wire        sqrt_d_ov,
    output wire [31:0] sqrt_d_r,
    output wire        sqrt_x_ov,
    output wire [31:0] sqrt_x_r,
    output wire [ 7:0] sqrt_d_lat,
    output wire [ 7:0] sqrt_x_lat,

    input  wire        fma_v,
    input  wire [31:0] fma_a,
    input  wire [31:0] fma_b,
    input  wire [31:0] fma_c,
    output wire        fma_d_ov,
    output wire [31:0] fma_d_r,
    output wire        fma_x_ov,
    output wire [31:0] fma_x_r,
    output wire [ 7:0] fma_d_lat,
    output wire [ 7:0] fma_x_lat
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

  localparam [7:0] TI_D = 2, TI_X = 3;
  assign ti_d_lat = TI_D;
  assign ti_x_lat = TI_X;
  ohls_fp_to_int #(.LATENCY(TI_D)) ti_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(ti_v), .a(ti_a), .rm(ti_rm),
      .is_signed(ti_sgn), .sat(ti_sat), .out_valid(ti_d_ov), .result(ti_d_r));
  ohls_fp_to_int #(.LATENCY(TI_X)) ti_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(ti_v), .a(ti_a), .rm(ti_rm),
      .is_signed(ti_sgn), .sat(ti_sat), .out_valid(ti_x_ov), .result(ti_x_r));

  localparam [7:0] ITF_D = 2, ITF_X = 0;
  assign itf_d_lat = ITF_D;
  assign itf_x_lat = ITF_X;
  ohls_int_to_fp #(.LATENCY(ITF_D)) itf_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(itf_v), .x(itf_in), .is_signed(itf_sgn),
      .rm(itf_rm), .out_valid(itf_d_ov), .result(itf_d_r));
  ohls_int_to_fp #(.LATENCY(ITF_X)) itf_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(itf_v), .x(itf_in), .is_signed(itf_sgn),
      .rm(itf_rm), .out_valid(itf_x_ov), .result(itf_x_r));

  localparam [7:0] TH_D = 1, TH_X = 2;
  assign th_d_lat = TH_D;
  assign th_x_lat = TH_X;
  ohls_fp_to_half #(.LATENCY(TH_D)) th_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(th_v), .a(th_a), .rm(th_rm),
      .out_valid(th_d_ov), .result(th_d_r));
  ohls_fp_to_half #(.LATENCY(TH_X)) th_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(th_v), .a(th_a), .rm(th_rm),
      .out_valid(th_x_ov), .result(th_x_r));

  localparam [7:0] HF_D = 1, HF_X = 0;
  assign hf_d_lat = HF_D;
  assign hf_x_lat = HF_X;
  ohls_half_to_fp #(.LATENCY(HF_D)) hf_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(hf_v), .h(hf_h),
      .out_valid(hf_d_ov), .result(hf_d_r));
  ohls_half_to_fp #(.LATENCY(HF_X)) hf_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(hf_v), .h(hf_h),
      .out_valid(hf_x_ov), .result(hf_x_r));

  // The divider and square root are checked fully registered and at a middle depth.
  localparam [7:0] DIV_D = 16, DIV_X = 29;
  assign div_d_lat = DIV_D;
  assign div_x_lat = DIV_X;
  ohls_fp_div #(.LATENCY(DIV_D)) div_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(div_v), .a(div_a), .b(div_b),
      .out_valid(div_d_ov), .result(div_d_r));
  ohls_fp_div #(.LATENCY(DIV_X)) div_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(div_v), .a(div_a), .b(div_b),
      .out_valid(div_x_ov), .result(div_x_r));

  localparam [7:0] SQRT_D = 14, SQRT_X = 3;
  assign sqrt_d_lat = SQRT_D;
  assign sqrt_x_lat = SQRT_X;
  ohls_fp_sqrt #(.LATENCY(SQRT_D)) sqrt_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(sqrt_v), .a(sqrt_a),
      .out_valid(sqrt_d_ov), .result(sqrt_d_r));
  ohls_fp_sqrt #(.LATENCY(SQRT_X)) sqrt_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(sqrt_v), .a(sqrt_a),
      .out_valid(sqrt_x_ov), .result(sqrt_x_r));

  localparam [7:0] FMA_D = 5, FMA_X = 0;
  assign fma_d_lat = FMA_D;
  assign fma_x_lat = FMA_X;
  ohls_fp_fma #(.LATENCY(FMA_D)) fma_d (
      .clk(clk), .rst(rst), .en(en), .in_valid(fma_v), .a(fma_a), .b(fma_b), .c(fma_c),
      .out_valid(fma_d_ov), .result(fma_d_r));
  ohls_fp_fma #(.LATENCY(FMA_X)) fma_x (
      .clk(clk), .rst(rst), .en(en), .in_valid(fma_v), .a(fma_a), .b(fma_b), .c(fma_c),
      .out_valid(fma_x_ov), .result(fma_x_r));
endmodule
