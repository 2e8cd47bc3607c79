// ohls_dp_cmp: IEEE-754 binary64 comparison, pipelined.
//
// Four predicates at once, with IEEE semantics: -0 == +0; any NaN operand (quiet or
// signalling) makes the pair unordered, and then eq, lt and le are all 0.
// Latency: LATENCY cycles, 0..1 (default 1, an output register).
// Throughput: one comparison per cycle. Handshake: `en` low freezes the pipeline;
// `in_valid` travels with the operation to `out_valid`.
//
// Parameters:
//   LATENCY - 0 or 1
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bit)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a, b
//   a, b      - operands (binary64 bit patterns)
//   out_valid - the outputs hold a finished comparison
//   eq        - a == b
//   lt        - a < b
//   le        - a <= b
//   unordered - a or b is NaN
module ohls_dp_cmp #(
    parameter LATENCY = 1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [63:0] a,
    input  wire [63:0] b,
    output wire        out_valid,
    output wire        eq,
    output wire        lt,
    output wire        le,
    output wire        unordered
);
  wire a_nan = (&a[62:52]) & (|a[51:0]);
  wire b_nan = (&b[62:52]) & (|b[51:0]);
  wire unord = a_nan | b_nan;
  wire zeros = ~(|a[62:0]) & ~(|b[62:0]);
  // Sign-magnitude to an order-preserving unsigned key (-0 sorts just below +0).
  wire [63:0] ka = a[63] ? ~a : {1'b1, a[62:0]};
  wire [63:0] kb = b[63] ? ~b : {1'b1, b[62:0]};
  wire is_eq = ~unord & ((a == b) | zeros);
  wire is_lt = ~unord & ~zeros & (ka < kb);

  ohls_fp_stage #(
      .W  (4),
      .REG(LATENCY > 0)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data({unord, is_lt | is_eq, is_lt, is_eq}),
      .out_valid(out_valid),
      .out_data({unordered, le, lt, eq})
  );
endmodule
