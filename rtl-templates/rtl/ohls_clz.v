// ohls_clz: count leading zeros (OpenCL clz), combinational.
//
// Latency 0 (a priority encoder; register around it where timing needs). clz(0) is
// WIDTH, as OpenCL defines.
//
// Parameters
//   WIDTH  operand bits (>= 1)
// Ports
//   x      operand
//   count  number of zero bits above the highest set bit ($clog2(WIDTH+1) bits)
module ohls_clz #(
    parameter WIDTH = 32
) (
    input  wire [WIDTH-1:0]           x,
    output wire [$clog2(WIDTH+1)-1:0] count
);
    localparam CW = $clog2(WIDTH + 1);

    function [CW-1:0] leading_zeros;
        input [WIDTH-1:0] v;
        integer i;
        reg found;
        begin
            leading_zeros = {CW{1'b0}};
            found = 1'b0;
            for (i = WIDTH - 1; i >= 0; i = i - 1) begin
                if (v[i]) found = 1'b1;
                if (!found) leading_zeros = leading_zeros + 1'b1;
            end
        end
    endfunction

    assign count = leading_zeros(x);
endmodule
