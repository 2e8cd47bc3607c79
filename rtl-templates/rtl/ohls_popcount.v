// ohls_popcount: population count (OpenCL popcount), combinational.
//
// Latency 0 (an adder tree; register around it where timing needs).
//
// Parameters
//   WIDTH  operand bits (>= 1)
// Ports
//   x      operand
//   count  number of set bits ($clog2(WIDTH+1) bits)
module ohls_popcount #(
    parameter WIDTH = 32
) (
    input  wire [WIDTH-1:0]           x,
    output wire [$clog2(WIDTH+1)-1:0] count
);
    localparam CW = $clog2(WIDTH + 1);

    function [CW-1:0] ones;
        input [WIDTH-1:0] v;
        integer i;
        begin
            ones = {CW{1'b0}};
            for (i = 0; i < WIDTH; i = i + 1) ones = ones + {{(CW - 1) {1'b0}}, v[i]};
        end
    endfunction

    assign count = ones(x);
endmodule
