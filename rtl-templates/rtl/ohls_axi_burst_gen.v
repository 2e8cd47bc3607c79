// ohls_axi_burst_gen: splits a byte range into AXI4 INCR bursts for the read and write
// masters (ohls_axi_rd, ohls_axi_wr): at most MAX_BURST beats each, never crossing a
// 4 KiB boundary.
//
// A command (byte address, byte length) is accepted when the generator is idle; its
// range [addr, addr+len) is widened to whole bus beats (the first beat starts at addr
// rounded down to the bus width) and one burst is offered per cycle on the burst_*
// handshake until the beats are used up. A zero-length command is accepted and gives
// no bursts. Alongside each accepted nonzero command, cmd_* reports the offset of addr
// in its first beat and the beat counts the data path needs (cmd_info_valid pulses in
// the accepting cycle).
//
// Parameters
//   DATA_WIDTH  bus bits (32..256, a power of two)
//   ADDR_WIDTH  address bits (>= 13)
//   LEN_WIDTH   bits of the byte length (>= 12)
//   MAX_BURST   beats per burst (1..256)
// Ports
//   clk, rst                       clock; synchronous active-high reset
//   cmd_valid, cmd_ready           command handshake; cmd_addr, cmd_len (bytes)
//   info_valid                     a nonzero command was accepted this cycle, with:
//   info_off                       cmd_addr modulo the bus width in bytes
//   info_beats                     bus beats the range touches
//   info_words                     bus-width words of data: ceil(len / bytes per beat)
//   burst_valid, burst_ready       one burst: burst_addr (beat aligned), burst_len (1..MAX_BURST)
//   busy                           a command is still being split
module ohls_axi_burst_gen #(
    parameter DATA_WIDTH = 32,
    parameter ADDR_WIDTH = 32,
    parameter LEN_WIDTH = 32,
    parameter MAX_BURST = 16
) (
    input  wire                       clk,
    input  wire                       rst,
    input  wire                       cmd_valid,
    output wire                       cmd_ready,
    input  wire [ADDR_WIDTH-1:0]      cmd_addr,
    input  wire [LEN_WIDTH-1:0]       cmd_len,
    output wire                       info_valid,
    output wire [$clog2(DATA_WIDTH/8)-1:0] info_off,
    output wire [LEN_WIDTH:0]         info_beats,
    output wire [LEN_WIDTH:0]         info_words,
    output wire                       burst_valid,
    input  wire                       burst_ready,
    output wire [ADDR_WIDTH-1:0]      burst_addr,
    output wire [8:0]                 burst_len,
    output wire                       busy
);
    localparam B = DATA_WIDTH / 8;
    localparam OB = $clog2(B);
    localparam CW = LEN_WIDTH + 1;
    localparam integer MAXB_I = MAX_BURST;
    localparam [CW-1:0] BM1 = {{(CW - OB) {1'b0}}, {OB{1'b1}}};  // bytes per beat - 1
    localparam [12:0] PAGE_BEATS = 13'd4096 >> OB;
    localparam [12:0] MAXB = MAXB_I[12:0];

    reg gen_busy;
    reg [ADDR_WIDTH-1:0] gen_addr;
    reg [CW-1:0] gen_left;

    assign cmd_ready = !gen_busy;
    assign busy = gen_busy;
    wire take = cmd_valid && cmd_ready;
    wire [CW-1:0] len_ext = {1'b0, cmd_len};
    wire [CW-1:0] off_ext = {{(CW - OB) {1'b0}}, cmd_addr[OB-1:0]};
    assign info_off = cmd_addr[OB-1:0];
    assign info_beats = (off_ext + len_ext + BM1) >> OB;
    assign info_words = (len_ext + BM1) >> OB;
    assign info_valid = take && (cmd_len != {LEN_WIDTH{1'b0}});

    // Beats left before the next 4 KiB boundary (gen_addr is beat aligned).
    wire [12:0] page_left = PAGE_BEATS - {{(OB + 1) {1'b0}}, gen_addr[11:OB]};
    reg [12:0] blen;
    always @(*) begin
        blen = MAXB;
        if (page_left < blen) blen = page_left;
        if (gen_left < {{(CW - 13) {1'b0}}, blen}) blen = gen_left[12:0];
    end

    assign burst_valid = gen_busy;
    assign burst_addr = gen_addr;
    assign burst_len = blen[8:0];

    always @(posedge clk) begin
        if (rst) begin
            gen_busy <= 1'b0;
        end else if (take) begin
            gen_busy <= (cmd_len != {LEN_WIDTH{1'b0}});
            gen_addr <= {cmd_addr[ADDR_WIDTH-1:OB], {OB{1'b0}}};
            gen_left <= info_beats;
        end else if (burst_valid && burst_ready) begin
            gen_addr <= gen_addr + ({{(ADDR_WIDTH - 13) {1'b0}}, blen} << OB);
            gen_left <= gen_left - {{(CW - 13) {1'b0}}, blen};
            if (gen_left == {{(CW - 13) {1'b0}}, blen}) gen_busy <= 1'b0;
        end
    end

    wire unused_blen = &{1'b0, blen[12:9]};
endmodule
