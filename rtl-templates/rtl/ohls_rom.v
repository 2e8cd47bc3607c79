// ohls_rom: read-only memory initialised from a hex file, with a registered read, so it
// maps to block RAM (M10K / BRAM) with the contents in the bitstream.
//
// Read latency 1 cycle: data is registered and holds while en is low; one read per
// cycle. The file is read with $readmemh at elaboration: one hex word per line (or
// whitespace separated), word 0 first; words the file does not give are undefined.
//
// Parameters
//   WIDTH      bits per word
//   DEPTH      number of words (>= 2)
//   INIT_FILE  path of the hex file (a string; "" leaves the ROM uninitialised)
// Ports
//   clk    clock
//   en     read this cycle
//   addr   word address
//   data   the word at addr, one cycle after en
module ohls_rom #(
    parameter WIDTH = 32,
    parameter DEPTH = 256,
    parameter INIT_FILE = ""
) (
    input  wire                     clk,
    input  wire                     en,
    input  wire [$clog2(DEPTH)-1:0] addr,
    output reg  [WIDTH-1:0]         data
);
    reg [WIDTH-1:0] mem[0:DEPTH-1];

    initial begin
        if (INIT_FILE != "") $readmemh(INIT_FILE, mem);
    end

    always @(posedge clk) begin
        if (en) data <= mem[addr];
    end
endmodule
