// ohls_div: pipelined integer divider giving quotient and remainder with OpenCL C
// semantics, one result per enabled cycle.
//
// Restoring division, one quotient bit per stage. Latency WIDTH + 2 enabled cycles
// (an input stage taking magnitudes, WIDTH bit stages, an output stage fixing signs);
// throughput one division per enabled cycle. No handshake: the pipeline advances when
// en is high (a stall pipeline, like ohls_stall_pipe), out_valid marks results.
// Semantics: the quotient truncates toward zero and the remainder has the sign of the
// dividend (C99 / OpenCL). OpenCL leaves division by zero undefined; we define it as
// RISC-V does: quotient all ones (-1 when signed), remainder = dividend. Signed
// MIN / -1 wraps: quotient MIN, remainder 0.
//
// Parameters
//   WIDTH   operand and result bits (8..64)
//   SIGNED  1: two's complement operands and results; 0: unsigned
// Ports
//   clk, rst             clock; synchronous active-high reset (clears the valid bits)
//   en                   advance the pipeline this cycle
//   in_valid             dividend / divisor are a valid operation
//   dividend, divisor    operands
//   out_valid            quotient / remainder belong to a valid operation
//   quotient, remainder  results, WIDTH + 2 enabled cycles after the operands
module ohls_div #(
    parameter WIDTH = 32,
    parameter SIGNED = 1
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             en,
    input  wire             in_valid,
    input  wire [WIDTH-1:0] dividend,
    input  wire [WIDTH-1:0] divisor,
    output wire             out_valid,
    output reg  [WIDTH-1:0] quotient,
    output reg  [WIDTH-1:0] remainder
);
    localparam W = WIDTH;

    wire a_neg = (SIGNED != 0) && dividend[W-1];
    wire b_neg = (SIGNED != 0) && divisor[W-1];
    wire [W-1:0] a_mag = a_neg ? (~dividend + 1'b1) : dividend;
    wire [W-1:0] b_mag = b_neg ? (~divisor + 1'b1) : divisor;

    // Stage k holds the partial remainder, the dividend bits not yet used (shifted up)
    // with the quotient bits made so far shifted in below them, and the divisor.
    reg [W-1:0] rem_q[0:W];
    reg [W-1:0] acc_q[0:W];
    reg [W-1:0] den_q[0:W];
    reg [W:0] negq_q;
    reg [W:0] negr_q;
    reg [W:0] dz_q;
    reg [W+1:0] valid_q;

    always @(posedge clk) begin
        if (en) begin
            rem_q[0] <= {W{1'b0}};
            acc_q[0] <= a_mag;
            den_q[0] <= b_mag;
            negq_q[0] <= a_neg ^ b_neg;
            negr_q[0] <= a_neg;
            dz_q[0] <= (divisor == {W{1'b0}});
        end
    end

    genvar k;
    generate
        for (k = 0; k < W; k = k + 1) begin : g_step
            wire [W:0] trial = {rem_q[k], acc_q[k][W-1]};
            wire [W:0] diff = trial - {1'b0, den_q[k]};
            wire fits = !diff[W];
            always @(posedge clk) begin
                if (en) begin
                    rem_q[k+1] <= fits ? diff[W-1:0] : trial[W-1:0];
                    acc_q[k+1] <= {acc_q[k][W-2:0], fits};
                    den_q[k+1] <= den_q[k];
                    negq_q[k+1] <= negq_q[k];
                    negr_q[k+1] <= negr_q[k];
                    dz_q[k+1] <= dz_q[k];
                end
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (en) begin
            if (dz_q[W]) quotient <= {W{1'b1}};
            else quotient <= negq_q[W] ? (~acc_q[W] + 1'b1) : acc_q[W];
            remainder <= negr_q[W] ? (~rem_q[W] + 1'b1) : rem_q[W];
        end
    end

    always @(posedge clk) begin
        if (rst) valid_q <= {(W + 2) {1'b0}};
        else if (en) valid_q <= {valid_q[W:0], in_valid};
    end
    assign out_valid = valid_q[W+1];

    // The divisor copy in the last stage is not needed by the output stage.
    wire unused_den = &{1'b0, den_q[W]};
endmodule
