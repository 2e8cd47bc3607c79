// ohls_axi_rd: AXI4 read master turning read commands into INCR bursts and returning
// the bytes as a stream of bus-width words aligned to the command's start address.
//
// Command interface: cmd_addr is a byte address, cmd_len a length in bytes (any
// alignment, any length; 0 is accepted and returns nothing). A command asks for the
// bytes [cmd_addr, cmd_addr + cmd_len). They come out as ceil(cmd_len / BYTES) words on
// out_* (BYTES = DATA_WIDTH / 8): byte j of word w is memory byte cmd_addr + w*BYTES + j,
// so a 1-, 2- or 4-byte load at any address arrives in the low bytes of one word; bytes
// past the end of the range in the last word are unspecified. out_last marks each
// command's last word. Commands are served in order.
// Bursts: the range is widened to whole beats and split into INCR bursts of at most
// MAX_BURST beats that never cross a 4 KiB boundary (ARSIZE = full bus width,
// ARID = AXI_ID: one ID, so responses arrive in order). Up to MAX_OUTSTANDING bursts are
// in flight. An AR is only issued when the data FIFO (FIFO_DEPTH beats) has room for the
// whole burst, so RREADY stays high and a slow consumer never stalls the R channel of
// the interconnect; back-pressure on AR (ARREADY low) and gaps on R are handled.
// Throughput: one beat per cycle for long commands; one command accepted every other
// cycle at best; a command whose address is not beat-aligned and which spans more than
// one beat costs one extra cycle. err is set (sticky until reset) by any RRESP other
// than OKAY; idle is high when no command is in progress.
//
// Parameters
//   DATA_WIDTH       bus bits (32..256, a power of two)
//   ADDR_WIDTH       address bits (>= 13)
//   LEN_WIDTH        bits of cmd_len (>= 12)
//   MAX_BURST        beats per burst (1..256; 16 by default)
//   MAX_OUTSTANDING  bursts in flight (>= 1)
//   FIFO_DEPTH       read data FIFO in beats (>= MAX_BURST; by default room for every
//                    outstanding burst, so bursts overlap fully)
//   ID_WIDTH, AXI_ID the ARID width and value
// Ports
//   clk, rst                          clock; synchronous active-high reset
//   cmd_valid, cmd_ready, cmd_addr, cmd_len   command (valid/ready)
//   out_valid, out_ready, out_data, out_last  data stream (valid/ready, AXI-stream rules)
//   m_ar*, m_r*                       AXI4 read address and data channels
//   err, idle                         status
module ohls_axi_rd #(
    parameter DATA_WIDTH = 32,
    parameter ADDR_WIDTH = 32,
    parameter LEN_WIDTH = 32,
    parameter MAX_BURST = 16,
    parameter MAX_OUTSTANDING = 4,
    parameter FIFO_DEPTH = MAX_BURST * MAX_OUTSTANDING,
    parameter ID_WIDTH = 1,
    parameter AXI_ID = 0
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  cmd_valid,
    output wire                  cmd_ready,
    input  wire [ADDR_WIDTH-1:0] cmd_addr,
    input  wire [LEN_WIDTH-1:0]  cmd_len,
    output reg                   out_valid,
    input  wire                  out_ready,
    output wire [DATA_WIDTH-1:0] out_data,
    output reg                   out_last,
    output reg                   m_arvalid,
    input  wire                  m_arready,
    output reg  [ADDR_WIDTH-1:0] m_araddr,
    output reg  [7:0]            m_arlen,
    output wire [2:0]            m_arsize,
    output wire [1:0]            m_arburst,
    output wire [ID_WIDTH-1:0]   m_arid,
    input  wire                  m_rvalid,
    output wire                  m_rready,
    input  wire [DATA_WIDTH-1:0] m_rdata,
    input  wire [1:0]            m_rresp,
    input  wire                  m_rlast,
    input  wire [ID_WIDTH-1:0]   m_rid,
    output reg                   err,
    output wire                  idle
);
    localparam B = DATA_WIDTH / 8;
    localparam OB = $clog2(B);
    localparam CW = LEN_WIDTH + 1;
    localparam DW = DATA_WIDTH;
    localparam FCW = $clog2(FIFO_DEPTH + 1);
    // Reserved-beat arithmetic width: room for FIFO_DEPTH plus a 256-beat burst.
    localparam RW = (FCW + 1 > 10) ? FCW + 1 : 10;
    localparam OW = $clog2(MAX_OUTSTANDING + 1);
    localparam DESC_W = OB + 2 * CW;
    localparam integer FD_I = FIFO_DEPTH;
    localparam integer MO_I = MAX_OUTSTANDING;
    localparam integer ID_I = AXI_ID;
    localparam integer SIZE_I = OB;
    localparam [RW-1:0] FIFO_DEPTH_R = FD_I[RW-1:0];
    localparam [OW-1:0] MAX_OUT = MO_I[OW-1:0];

    // A FIFO smaller than one burst could never issue: refuse to elaborate.
    generate
        if (FIFO_DEPTH < MAX_BURST) begin : g_bad_fifo_depth
            ohls_error_fifo_depth_below_max_burst u_error ();
        end
    endgenerate

    assign m_arsize = SIZE_I[2:0];
    assign m_arburst = 2'b01;
    assign m_arid = ID_I[ID_WIDTH-1:0];

    // ---- Command splitting and the AR channel ----
    wire desc_in_ready;
    wire gen_cmd_ready;
    wire info_valid;
    wire [OB-1:0] info_off;
    wire [CW-1:0] info_beats;
    wire [CW-1:0] info_words;
    wire burst_valid;
    wire [ADDR_WIDTH-1:0] burst_addr;
    wire [8:0] burst_len;
    wire gen_busy;
    reg [RW-1:0] reserved;  // beats asked for whose data has not arrived
    reg [OW-1:0] outstanding;
    wire [FCW-1:0] fifo_count;

    assign cmd_ready = gen_cmd_ready && desc_in_ready;
    wire [RW-1:0] need = {{(RW - FCW) {1'b0}}, fifo_count} + reserved + {{(RW - 9) {1'b0}}, burst_len};
    wire ar_free = !m_arvalid || m_arready;
    wire issue = burst_valid && ar_free && (outstanding != MAX_OUT) && (need <= FIFO_DEPTH_R);

    ohls_axi_burst_gen #(
        .DATA_WIDTH(DATA_WIDTH),
        .ADDR_WIDTH(ADDR_WIDTH),
        .LEN_WIDTH (LEN_WIDTH),
        .MAX_BURST (MAX_BURST)
    ) u_gen (
        .clk(clk),
        .rst(rst),
        .cmd_valid(cmd_valid && desc_in_ready),
        .cmd_ready(gen_cmd_ready),
        .cmd_addr(cmd_addr),
        .cmd_len(cmd_len),
        .info_valid(info_valid),
        .info_off(info_off),
        .info_beats(info_beats),
        .info_words(info_words),
        .burst_valid(burst_valid),
        .burst_ready(issue),
        .burst_addr(burst_addr),
        .burst_len(burst_len),
        .busy(gen_busy)
    );

    wire r_beat = m_rvalid && m_rready;
    always @(posedge clk) begin
        if (rst) begin
            m_arvalid <= 1'b0;
            reserved <= {RW{1'b0}};
            outstanding <= {OW{1'b0}};
            err <= 1'b0;
        end else begin
            if (issue) begin
                m_arvalid <= 1'b1;
                m_araddr <= burst_addr;
                m_arlen <= burst_len[7:0] - 8'd1;
            end else if (m_arready) begin
                m_arvalid <= 1'b0;
            end
            reserved <= reserved + (issue ? {{(RW - 9) {1'b0}}, burst_len} : {RW{1'b0}})
                - {{(RW - 1) {1'b0}}, r_beat};
            if (issue && !(r_beat && m_rlast)) outstanding <= outstanding + 1'b1;
            else if (!issue && r_beat && m_rlast) outstanding <= outstanding - 1'b1;
            if (r_beat && m_rresp != 2'b00) err <= 1'b1;
        end
    end

    // ---- Read data FIFO ----
    wire unused_data_full;
    wire unused_data_empty;
    wire fifo_in_ready;
    wire h_valid;
    wire [DW-1:0] h_data;
    reg pop_h;
    assign m_rready = fifo_in_ready;
    ohls_fifo #(
        .WIDTH(DW),
        .DEPTH(FIFO_DEPTH)
    ) u_data (
        .clk(clk),
        .rst(rst),
        .in_valid(m_rvalid),
        .in_ready(fifo_in_ready),
        .in_data(m_rdata),
        .out_valid(h_valid),
        .out_ready(pop_h),
        .out_data(h_data),
        .count(fifo_count),
        .full(unused_data_full),
        .empty(unused_data_empty)
    );

    // ---- Command descriptors for the aligner ----
    wire [$clog2(MAX_OUTSTANDING+2)-1:0] unused_desc_count;
    wire unused_desc_full;
    wire unused_desc_empty;
    wire d_valid;
    wire [DESC_W-1:0] d_bits;
    reg pop_d;
    ohls_fifo_reg #(
        .WIDTH(DESC_W),
        .DEPTH(MAX_OUTSTANDING + 1)
    ) u_desc (
        .clk(clk),
        .rst(rst),
        .in_valid(info_valid),
        .in_ready(desc_in_ready),
        .in_data({info_off, info_beats, info_words}),
        .out_valid(d_valid),
        .out_ready(pop_d),
        .out_data(d_bits),
        .count(unused_desc_count),
        .full(unused_desc_full),
        .empty(unused_desc_empty)
    );
    wire [OB-1:0] d_off = d_bits[DESC_W-1:2*CW];
    wire [CW-1:0] d_beats = d_bits[2*CW-1:CW];
    wire [CW-1:0] d_words = d_bits[CW-1:0];

    // ---- Aligner: out word w = bytes off.. of beat w, then bytes ..off-1 of beat w+1 ----
    reg started;
    reg has_prev;
    reg [CW-1:0] beats_left;
    reg [CW-1:0] words_left;
    reg [DW-1:0] prev;
    wire [CW-1:0] cur_beats = started ? beats_left : d_beats;
    wire [CW-1:0] cur_words = started ? words_left : d_words;
    wire [CW-1:0] one = {{(CW - 1) {1'b0}}, 1'b1};
    wire more_beats = (beats_left != {CW{1'b0}});
    reg capture;

    wire [DW-1:0] lo = has_prev ? prev : h_data;
    wire [DW-1:0] hi = (has_prev && more_beats) ? h_data : {DW{1'b0}};
    wire [2*DW-1:0] joined = {hi, lo} >> {d_off, 3'b000};
    assign out_data = joined[DW-1:0];

    always @(*) begin
        out_valid = 1'b0;
        out_last = 1'b0;
        pop_h = 1'b0;
        pop_d = 1'b0;
        capture = 1'b0;
        if (d_valid) begin
            if (d_off == {OB{1'b0}} || (!has_prev && cur_beats == one)) begin
                // One beat makes one word.
                out_valid = h_valid;
                out_last = (cur_words == one);
                pop_h = h_valid && out_ready;
                pop_d = pop_h && out_last;
            end else if (!has_prev) begin
                // First beat of a word that spans two beats: hold it.
                capture = h_valid;
                pop_h = h_valid;
            end else if (more_beats) begin
                out_valid = h_valid;
                out_last = (words_left == one);
                pop_h = h_valid && out_ready;
                pop_d = pop_h && out_last;
            end else begin
                // The last word lies within the held beat.
                out_valid = 1'b1;
                out_last = 1'b1;
                pop_d = out_ready;
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            started <= 1'b0;
            has_prev <= 1'b0;
        end else if (pop_d) begin
            started <= 1'b0;
            has_prev <= 1'b0;
        end else if (capture || (out_valid && out_ready)) begin
            started <= 1'b1;
            if (capture) has_prev <= 1'b1;
            if (pop_h) beats_left <= cur_beats - one;
            if (!capture) words_left <= cur_words - one;
            else words_left <= cur_words;
        end
    end

    always @(posedge clk) begin
        if (pop_h) prev <= h_data;
    end

    assign idle = !gen_busy && !d_valid && (outstanding == {OW{1'b0}});

    wire unused_rd = &{1'b0, m_rid, joined[2*DW-1:DW]};
endmodule
