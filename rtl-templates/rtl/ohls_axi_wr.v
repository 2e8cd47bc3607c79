// ohls_axi_wr: AXI4 write master turning write commands and a data stream into INCR
// bursts with byte strobes.
//
// Command interface: cmd_addr is a byte address, cmd_len a length in bytes (any
// alignment, any length; 0 is accepted and writes nothing). A command writes the bytes
// [cmd_addr, cmd_addr + cmd_len). Its data arrives as ceil(cmd_len / BYTES) words on
// in_* (BYTES = DATA_WIDTH / 8): byte j of word w goes to memory byte
// cmd_addr + w*BYTES + j, and in_strb bit j says whether to write it (so a store
// pipeline can mask elements). A 1-, 2- or 4-byte store at any address is a command of
// that length with one word whose low bytes hold the value. Bytes outside the range are
// never written, whatever in_strb says. Commands are served in order; their words
// follow each other on in_* with no marker between commands.
// Bursts: the range is widened to whole beats and split into INCR bursts of at most
// MAX_BURST beats that never cross a 4 KiB boundary (AWSIZE = full bus width,
// AWID = AXI_ID). WSTRB is set only on the bytes written, WLAST on each burst's last
// beat. Up to MAX_OUTSTANDING bursts may wait for their B response. W beats may be sent
// before their AW is accepted (allowed by AXI4). W goes through a skid buffer, so WREADY
// does not reach in_ready combinationally. BREADY is always high.
// Throughput: one beat per cycle for long commands; one command accepted every other
// cycle at best. err is set (sticky until reset) by any BRESP other than OKAY; idle is
// high when every accepted command has been written and acknowledged (use it before
// reporting a kernel done).
//
// Parameters
//   DATA_WIDTH       bus bits (32..256, a power of two)
//   ADDR_WIDTH       address bits (>= 13)
//   LEN_WIDTH        bits of cmd_len (>= 12)
//   MAX_BURST        beats per burst (1..256; 16 by default)
//   MAX_OUTSTANDING  bursts awaiting B (>= 1)
//   ID_WIDTH, AXI_ID the AWID width and value
// Ports
//   clk, rst                                     clock; synchronous active-high reset
//   cmd_valid, cmd_ready, cmd_addr, cmd_len      command (valid/ready)
//   in_valid, in_ready, in_data, in_strb         data stream (valid/ready)
//   m_aw*, m_w*, m_b*                            AXI4 write channels
//   err, idle                                    status
module ohls_axi_wr #(
    parameter DATA_WIDTH = 32,
    parameter ADDR_WIDTH = 32,
    parameter LEN_WIDTH = 32,
    parameter MAX_BURST = 16,
    parameter MAX_OUTSTANDING = 4,
    parameter ID_WIDTH = 1,
    parameter AXI_ID = 0
) (
    input  wire                    clk,
    input  wire                    rst,
    input  wire                    cmd_valid,
    output wire                    cmd_ready,
    input  wire [ADDR_WIDTH-1:0]   cmd_addr,
    input  wire [LEN_WIDTH-1:0]    cmd_len,
    input  wire                    in_valid,
    output wire                    in_ready,
    input  wire [DATA_WIDTH-1:0]   in_data,
    input  wire [DATA_WIDTH/8-1:0] in_strb,
    output reg                     m_awvalid,
    input  wire                    m_awready,
    output reg  [ADDR_WIDTH-1:0]   m_awaddr,
    output reg  [7:0]              m_awlen,
    output wire [2:0]              m_awsize,
    output wire [1:0]              m_awburst,
    output wire [ID_WIDTH-1:0]     m_awid,
    output wire                    m_wvalid,
    input  wire                    m_wready,
    output wire [DATA_WIDTH-1:0]   m_wdata,
    output wire [DATA_WIDTH/8-1:0] m_wstrb,
    output wire                    m_wlast,
    input  wire                    m_bvalid,
    output wire                    m_bready,
    input  wire [1:0]              m_bresp,
    input  wire [ID_WIDTH-1:0]     m_bid,
    output reg                     err,
    output wire                    idle
);
    localparam B = DATA_WIDTH / 8;
    localparam OB = $clog2(B);
    localparam CW = LEN_WIDTH + 1;
    localparam DW = DATA_WIDTH;
    localparam OW = $clog2(MAX_OUTSTANDING + 1);
    localparam DESC_W = 2 * OB + 2 * CW;
    localparam integer MO_I = MAX_OUTSTANDING;
    localparam integer ID_I = AXI_ID;
    localparam integer SIZE_I = OB;
    localparam [OW-1:0] MAX_OUT = MO_I[OW-1:0];

    assign m_awsize = SIZE_I[2:0];
    assign m_awburst = 2'b01;
    assign m_awid = ID_I[ID_WIDTH-1:0];
    assign m_bready = 1'b1;

    // ---- Command splitting and the AW channel ----
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
    wire wl_in_ready;
    reg [OW-1:0] outstanding;

    assign cmd_ready = gen_cmd_ready && desc_in_ready;
    wire aw_free = !m_awvalid || m_awready;
    wire issue = burst_valid && aw_free && wl_in_ready && (outstanding != MAX_OUT);

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

    always @(posedge clk) begin
        if (rst) begin
            m_awvalid <= 1'b0;
            outstanding <= {OW{1'b0}};
            err <= 1'b0;
        end else begin
            if (issue) begin
                m_awvalid <= 1'b1;
                m_awaddr <= burst_addr;
                m_awlen <= burst_len[7:0] - 8'd1;
            end else if (m_awready) begin
                m_awvalid <= 1'b0;
            end
            if (issue && !m_bvalid) outstanding <= outstanding + 1'b1;
            else if (!issue && m_bvalid) outstanding <= outstanding - 1'b1;
            if (m_bvalid && m_bresp != 2'b00) err <= 1'b1;
        end
    end

    // ---- Burst lengths for WLAST ----
    wire wl_valid;
    wire [8:0] wl_len;
    reg pop_wl;
    wire [$clog2(MAX_OUTSTANDING+1)-1:0] unused_wl_count;
    wire unused_wl_full;
    wire unused_wl_empty;
    ohls_fifo_reg #(
        .WIDTH(9),
        .DEPTH(MAX_OUTSTANDING)
    ) u_wlen (
        .clk(clk),
        .rst(rst),
        .in_valid(issue),
        .in_ready(wl_in_ready),
        .in_data(burst_len),
        .out_valid(wl_valid),
        .out_ready(pop_wl),
        .out_data(wl_len),
        .count(unused_wl_count),
        .full(unused_wl_full),
        .empty(unused_wl_empty)
    );

    // ---- Command descriptors for the W path ----
    // The end lane: bytes of the last beat that are in range ((off + len) mod BYTES,
    // with 0 meaning all of them).
    wire [OB-1:0] info_end = cmd_len[OB-1:0] + info_off;
    wire d_valid;
    wire [DESC_W-1:0] d_bits;
    reg pop_d;
    wire [$clog2(MAX_OUTSTANDING+2)-1:0] unused_desc_count;
    wire unused_desc_full;
    wire unused_desc_empty;
    ohls_fifo_reg #(
        .WIDTH(DESC_W),
        .DEPTH(MAX_OUTSTANDING + 1)
    ) u_desc (
        .clk(clk),
        .rst(rst),
        .in_valid(info_valid),
        .in_ready(desc_in_ready),
        .in_data({info_off, info_end, info_beats, info_words}),
        .out_valid(d_valid),
        .out_ready(pop_d),
        .out_data(d_bits),
        .count(unused_desc_count),
        .full(unused_desc_full),
        .empty(unused_desc_empty)
    );
    wire [OB-1:0] d_off = d_bits[DESC_W-1:DESC_W-OB];
    wire [OB-1:0] d_end = d_bits[2*CW+OB-1:2*CW];
    wire [CW-1:0] d_beats = d_bits[2*CW-1:CW];
    wire [CW-1:0] d_words = d_bits[CW-1:0];

    // ---- W path: bus beat k = bytes ..off-1 from word k-1, then bytes off.. from word k ----
    reg started;
    reg [CW-1:0] beats_left;
    reg [CW-1:0] words_left;
    reg [8:0] burst_done;
    reg [DW-1:0] prev_data;
    reg [B-1:0] prev_strb;
    wire [CW-1:0] cur_beats = started ? beats_left : d_beats;
    wire [CW-1:0] cur_words = started ? words_left : d_words;
    wire [CW-1:0] one = {{(CW - 1) {1'b0}}, 1'b1};
    wire need_word = (cur_words != {CW{1'b0}});
    wire first_beat = !started;
    wire last_beat = (cur_beats == one);

    wire skid_ready;
    wire can_beat = d_valid && wl_valid && skid_ready;
    wire beat = can_beat && (!need_word || in_valid);
    assign in_ready = can_beat && need_word;

    wire [DW-1:0] cur_data = need_word ? in_data : {DW{1'b0}};
    wire [B-1:0] cur_strb = need_word ? in_strb : {B{1'b0}};
    // Shift right by BYTES - off bytes: for off = 0 this is exactly the new word.
    wire [OB:0] back = {1'b1, {OB{1'b0}}} - {1'b0, d_off};
    wire [2*DW-1:0] data_join = {cur_data, prev_data} >> {back, 3'b000};
    wire [2*B-1:0] strb_join = {cur_strb, prev_strb} >> back;
    wire [B-1:0] lo_mask = first_beat ? ({B{1'b1}} << d_off) : {B{1'b1}};
    wire [OB:0] end_lanes = (d_end == {OB{1'b0}}) ? {1'b1, {OB{1'b0}}} : {1'b0, d_end};
    wire [OB:0] cut = {1'b1, {OB{1'b0}}} - end_lanes;
    wire [B-1:0] hi_mask = last_beat ? ({B{1'b1}} >> cut) : {B{1'b1}};
    wire w_last = (burst_done + 9'd1 == wl_len);

    always @(*) begin
        pop_wl = beat && w_last;
        pop_d = beat && last_beat;
    end

    always @(posedge clk) begin
        if (rst) begin
            started <= 1'b0;
            burst_done <= 9'd0;
            prev_data <= {DW{1'b0}};
            prev_strb <= {B{1'b0}};
        end else if (beat) begin
            burst_done <= w_last ? 9'd0 : burst_done + 9'd1;
            if (last_beat) begin
                started <= 1'b0;
                prev_data <= {DW{1'b0}};
                prev_strb <= {B{1'b0}};
            end else begin
                started <= 1'b1;
                beats_left <= cur_beats - one;
                words_left <= need_word ? cur_words - one : cur_words;
                if (need_word) begin
                    prev_data <= in_data;
                    prev_strb <= in_strb;
                end
            end
        end
    end

    ohls_skid_buffer #(
        .WIDTH(DW + B + 1)
    ) u_wskid (
        .clk(clk),
        .rst(rst),
        .in_valid(beat),
        .in_ready(skid_ready),
        .in_data({data_join[DW-1:0], strb_join[B-1:0] & lo_mask & hi_mask, w_last}),
        .out_valid(m_wvalid),
        .out_ready(m_wready),
        .out_data({m_wdata, m_wstrb, m_wlast})
    );

    assign idle = !gen_busy && !d_valid && (outstanding == {OW{1'b0}});

    wire unused_wr = &{1'b0, m_bid, data_join[2*DW-1:DW], strb_join[2*B-1:B]};
endmodule
