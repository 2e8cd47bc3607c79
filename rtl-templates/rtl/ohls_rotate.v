// ohls_rotate: left rotate by a count taken modulo the width (OpenCL rotate),
// combinational.
//
// Latency 0 (a barrel shifter). OpenCL rotate(v, i) uses i modulo the bit width, so only
// the low $clog2(WIDTH) bits of amount matter, and a negative amount rotates right.
//
// Parameters
//   WIDTH  operand bits; a power of two (8, 16, 32, 64)
// Ports
//   x       operand
//   amount  rotate count, same width as x (OpenCL's rotate takes the operand type)
//   y       x rotated left by amount mod WIDTH
module ohls_rotate #(
    parameter WIDTH = 32
) (
    input  wire [WIDTH-1:0] x,
    input  wire [WIDTH-1:0] amount,
    output wire [WIDTH-1:0] y
);
    localparam SW = (WIDTH > 1) ? $clog2(WIDTH) : 1;

    wire [SW-1:0] shift = amount[SW-1:0];
    wire [2*WIDTH-1:0] doubled = {x, x} << shift;
    assign y = doubled[2*WIDTH-1:WIDTH];

    // The low half of the doubled word is x shifted out of view; only the high half is y.
    wire unused_bits = &{1'b0, amount[WIDTH-1:SW], doubled[WIDTH-1:0]};
endmodule
