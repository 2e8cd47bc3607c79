// ohls_stall_pipe: DEPTH-stage shift pipeline with a global enable, for datapaths that
// stall as a whole (the scheduler's static pipelines).
//
// When en is high every stage takes the previous stage's data and valid bit; when en is
// low nothing moves. Latency DEPTH enabled cycles; throughput one item per enabled cycle.
// No handshake: the controller that drives en guarantees nothing is lost.
//
// Parameters
//   WIDTH  bits per item (>= 1)
//   DEPTH  number of register stages (>= 1)
// Ports
//   clk, rst   clock; synchronous active-high reset (clears the valid bits only)
//   en         advance the pipeline this cycle
//   in_valid   the item entering stage 0 is valid; in_data is the item
//   out_valid  the last stage holds a valid item; out_data is that item
module ohls_stall_pipe #(
    parameter WIDTH = 32,
    parameter DEPTH = 3
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             en,
    input  wire             in_valid,
    input  wire [WIDTH-1:0] in_data,
    output wire             out_valid,
    output wire [WIDTH-1:0] out_data
);
    reg [WIDTH-1:0] data_q[0:DEPTH-1];
    reg [DEPTH-1:0] valid_q;
    integer i;  // one loop variable per always block, so synthesis sees no shared driver
    integer j;

    assign out_valid = valid_q[DEPTH-1];
    assign out_data = data_q[DEPTH-1];

    always @(posedge clk) begin
        if (rst) begin
            valid_q <= {DEPTH{1'b0}};
        end else if (en) begin
            valid_q[0] <= in_valid;
            for (i = 1; i < DEPTH; i = i + 1) valid_q[i] <= valid_q[i-1];
        end
    end

    always @(posedge clk) begin
        if (en) begin
            data_q[0] <= in_data;
            for (j = 1; j < DEPTH; j = j + 1) data_q[j] <= data_q[j-1];
        end
    end
endmodule
