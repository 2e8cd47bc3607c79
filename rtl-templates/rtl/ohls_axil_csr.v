// ohls_axil_csr: AXI4-Lite slave register block of a kernel core: control, status,
// interrupts, NDRange sizes and kernel arguments.
//
// Register map (byte addresses, 32-bit registers; the low two address bits are ignored
// and WSTRB selects the bytes written):
//   0x00 CONTROL     W: bit 0 START (write 1 to start; self-clearing, reads as 0).
//                    A START while BUSY is ignored.
//   0x04 STATUS      R: bit 0 DONE (set when the kernel finishes, cleared by START),
//                    bit 1 BUSY, bits 15:8 ERROR code reported with the last done.
//   0x08 IRQ_ENABLE  RW: bit 0 done interrupt, bit 1 error interrupt.
//   0x0C IRQ_STATUS  R / write-1-to-clear: bit 0 done event, bit 1 error event
//                    (done with a nonzero error code). irq = |(IRQ_STATUS & IRQ_ENABLE).
//   0x10 GLOBAL_SIZE0, 0x14 GLOBAL_SIZE1, 0x18 GLOBAL_SIZE2    RW
//   0x1C LOCAL_SIZE0,  0x20 LOCAL_SIZE1,  0x24 LOCAL_SIZE2     RW
//   0x38 NARGS       R: the NARGS parameter.
//   0x3C MAGIC       R: 0x4F484C53 ("OHLS").
//   0x40 + 4*i       ARG i (RW, i < NARGS). A 64-bit argument takes two consecutive
//                    registers, low word first.
//   0x100 + 4*i      COUNTER i (R, i < NCOUNTERS): the core's performance counters
//                    (what each counts is the core's register map; writes are ignored
//                    with OKAY).
// Reads of addresses not listed return 0 with SLVERR; writes to them are ignored with
// SLVERR. Writes to read-only registers (STATUS, NARGS, MAGIC) are ignored with OKAY.
// The host must not change sizes or arguments while BUSY.
//
// AXI4-Lite handshakes: AW and W are accepted independently (either order, or in the
// same cycle) into one holding register each; the write happens once both are held and
// the B channel is free, and BVALID/BRESP are held until BREADY. AR is accepted when
// the R channel is free (or being emptied); RVALID/RDATA/RRESP are held until RREADY.
// Latency: B one cycle after the later of AW and W; R one cycle after AR.
// AWPROT/ARPROT are not used and not present.
//
// Parameters
//   NARGS       number of 32-bit argument registers (1..48)
//   NCOUNTERS   number of read-only counter registers (0..64; ADDR_WIDTH >= 9 when > 0)
//   ADDR_WIDTH  AXI address bits (>= 8)
// Ports
//   clk, rst                         clock; synchronous active-high reset
//   s_aw*, s_w*, s_b*, s_ar*, s_r*   AXI4-Lite slave
//   start      one-cycle pulse: the kernel starts (the sizes and arguments are valid)
//   done       input, one-cycle pulse: the kernel finished
//   err_code   input, error code sampled with done (0: no error)
//   busy       the kernel is running (between start and done)
//   global_size, local_size   {dim2, dim1, dim0}, 32 bits each
//   args       {arg NARGS-1, ..., arg 0}, 32 bits each
//   counters   {counter NCOUNTERS-1, ..., counter 0}, 32 bits each (one unused word
//              when NCOUNTERS is 0)
//   irq        level interrupt
module ohls_axil_csr #(
    parameter NARGS = 8,
    parameter NCOUNTERS = 0,
    parameter ADDR_WIDTH = 12
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  s_awvalid,
    output wire                  s_awready,
    input  wire [ADDR_WIDTH-1:0] s_awaddr,
    input  wire                  s_wvalid,
    output wire                  s_wready,
    input  wire [31:0]           s_wdata,
    input  wire [3:0]            s_wstrb,
    output reg                   s_bvalid,
    input  wire                  s_bready,
    output reg  [1:0]            s_bresp,
    input  wire                  s_arvalid,
    output wire                  s_arready,
    input  wire [ADDR_WIDTH-1:0] s_araddr,
    output reg                   s_rvalid,
    input  wire                  s_rready,
    output reg  [31:0]           s_rdata,
    output reg  [1:0]            s_rresp,
    output reg                   start,
    input  wire                  done,
    input  wire [7:0]            err_code,
    output reg                   busy,
    output wire [95:0]           global_size,
    output wire [95:0]           local_size,
    output wire [NARGS*32-1:0]   args,
    input  wire [(NCOUNTERS > 0 ? NCOUNTERS : 1)*32-1:0] counters,
    output wire                  irq
);
    localparam [1:0] OKAY = 2'b00;
    localparam [1:0] SLVERR = 2'b10;
    localparam WA = ADDR_WIDTH - 2;  // word address bits
    localparam integer NARGS_I = NARGS;
    localparam integer NCOUNTERS_I = NCOUNTERS;

    reg done_q;
    reg [7:0] err_q;
    reg [1:0] irq_en;
    reg [1:0] irq_st;
    reg [31:0] gsize[0:2];
    reg [31:0] lsize[0:2];
    reg [31:0] arg[0:NARGS-1];

    // Write address and data holding registers.
    reg aw_full;
    reg [WA-1:0] aw_word_q;
    reg w_full;
    reg [31:0] w_data_q;
    reg [3:0] w_strb_q;

    assign s_awready = !aw_full;
    assign s_wready = !w_full;
    wire [WA-1:0] wr_word = aw_full ? aw_word_q : s_awaddr[ADDR_WIDTH-1:2];
    wire [31:0] wr_data = w_full ? w_data_q : s_wdata;
    wire [3:0] wr_strb = w_full ? w_strb_q : s_wstrb;
    wire do_write = (aw_full || s_awvalid) && (w_full || s_wvalid) && (!s_bvalid || s_bready);

    function [31:0] merge;
        input [31:0] old;
        input [31:0] data;
        input [3:0] strb;
        integer b;
        begin
            merge = old;
            for (b = 0; b < 4; b = b + 1) if (strb[b]) merge[b*8+:8] = data[b*8+:8];
        end
    endfunction

    // Decoding, shared by reads and writes (word addresses).
    function is_arg;
        input [WA-1:0] w;
        begin
            is_arg = (w >= 16) && ({{(32 - WA) {1'b0}}, w} < 16 + NARGS_I);
        end
    endfunction
    function is_counter;
        input [WA-1:0] w;
        begin
            is_counter = (WA > 6) && ({{(32 - WA) {1'b0}}, w} >= 64)
                && ({{(32 - WA) {1'b0}}, w} < 64 + NCOUNTERS_I);
        end
    endfunction
    function mapped;
        input [WA-1:0] w;
        begin
            mapped = (w <= 9) || (w == 14) || (w == 15) || is_arg(w) || is_counter(w);
        end
    endfunction
    function [31:0] counter_index;
        input [WA-1:0] w;
        begin
            counter_index = {{(32 - WA) {1'b0}}, w} - 32'd64;
        end
    endfunction
    function [31:0] arg_index;
        input [WA-1:0] w;
        begin
            arg_index = {{(32 - WA) {1'b0}}, w} - 32'd16;
        end
    endfunction

    wire start_wr = do_write && (wr_word == 0) && wr_strb[0] && wr_data[0];

    always @(posedge clk) begin
        if (rst) begin
            aw_full <= 1'b0;
            w_full <= 1'b0;
            s_bvalid <= 1'b0;
            s_bresp <= OKAY;
            start <= 1'b0;
            busy <= 1'b0;
            done_q <= 1'b0;
            err_q <= 8'd0;
            irq_en <= 2'b00;
            irq_st <= 2'b00;
        end else begin
            // Holding registers: fill on a handshake the write does not consume now.
            if (do_write) begin
                aw_full <= 1'b0;
                w_full <= 1'b0;
            end else begin
                if (s_awvalid && !aw_full) begin
                    aw_full <= 1'b1;
                    aw_word_q <= s_awaddr[ADDR_WIDTH-1:2];
                end
                if (s_wvalid && !w_full) begin
                    w_full <= 1'b1;
                    w_data_q <= s_wdata;
                    w_strb_q <= s_wstrb;
                end
            end
            if (do_write) begin
                s_bvalid <= 1'b1;
                s_bresp <= mapped(wr_word) ? OKAY : SLVERR;
                if (wr_word == 2 && wr_strb[0]) irq_en <= wr_data[1:0];
            end else if (s_bready) begin
                s_bvalid <= 1'b0;
            end
            // Kernel control. Done is recorded after a same-cycle W1C so no event is lost.
            start <= start_wr && !busy;
            if (start_wr && !busy) begin
                busy <= 1'b1;
                done_q <= 1'b0;
            end
            if (do_write && wr_word == 3 && wr_strb[0]) irq_st <= irq_st & ~wr_data[1:0];
            if (done) begin
                busy <= 1'b0;
                done_q <= 1'b1;
                err_q <= err_code;
                irq_st[0] <= 1'b1;
                if (err_code != 8'd0) irq_st[1] <= 1'b1;
            end
        end
    end

    // Sizes and arguments: one decoder per register, so each is a plain enabled flop.
    genvar g;
    generate
        for (g = 0; g < 3; g = g + 1) begin : g_sizes
            always @(posedge clk) begin
                if (rst) begin
                    gsize[g] <= 32'd0;
                    lsize[g] <= 32'd0;
                end else if (do_write) begin
                    if (wr_word == 4 + g) gsize[g] <= merge(gsize[g], wr_data, wr_strb);
                    if (wr_word == 7 + g) lsize[g] <= merge(lsize[g], wr_data, wr_strb);
                end
            end
        end
        for (g = 0; g < NARGS; g = g + 1) begin : g_arg_regs
            always @(posedge clk) begin
                if (rst) arg[g] <= 32'd0;
                else if (do_write && wr_word == 16 + g) arg[g] <= merge(arg[g], wr_data, wr_strb);
            end
        end
    endgenerate

    // Counter i of the flat input (index checked by is_counter).
    function [31:0] counter_word;
        input [31:0] i;
        integer j;
        begin
            counter_word = 32'd0;
            for (j = 0; j < (NCOUNTERS > 0 ? NCOUNTERS : 1); j = j + 1)
                if (i == j) counter_word = counters[j*32+:32];
        end
    endfunction

    // Read channel.
    assign s_arready = !s_rvalid || s_rready;
    wire [WA-1:0] rd_word = s_araddr[ADDR_WIDTH-1:2];
    reg [31:0] rd_value;
    always @(*) begin
        rd_value = 32'd0;
        case (rd_word)
            0: rd_value = 32'd0;
            1: rd_value = {16'd0, err_q, 6'd0, busy, done_q};
            2: rd_value = {30'd0, irq_en};
            3: rd_value = {30'd0, irq_st};
            4, 5, 6: rd_value = gsize[rd_word-4];
            7, 8, 9: rd_value = lsize[rd_word-7];
            14: rd_value = NARGS_I;
            15: rd_value = 32'h4F48_4C53;
            default:
                if (is_arg(rd_word)) rd_value = arg[arg_index(rd_word)];
                else if (is_counter(rd_word)) rd_value = counter_word(counter_index(rd_word));
        endcase
    end

    always @(posedge clk) begin
        if (rst) begin
            s_rvalid <= 1'b0;
            s_rresp <= OKAY;
            s_rdata <= 32'd0;
        end else if (s_arvalid && s_arready) begin
            s_rvalid <= 1'b1;
            s_rdata <= rd_value;
            s_rresp <= mapped(rd_word) ? OKAY : SLVERR;
        end else if (s_rready) begin
            s_rvalid <= 1'b0;
        end
    end

    assign irq = |(irq_st & irq_en);
    assign global_size = {gsize[2], gsize[1], gsize[0]};
    assign local_size = {lsize[2], lsize[1], lsize[0]};
    generate
        for (g = 0; g < NARGS; g = g + 1) begin : g_args
            assign args[g*32+:32] = arg[g];
        end
    endgenerate

    wire unused_addr = &{1'b0, s_awaddr[1:0], s_araddr[1:0]};
    generate
        if (NCOUNTERS == 0) begin : g_no_counters
            wire unused_counters = &{1'b0, counters};
        end
    endgenerate
endmodule
