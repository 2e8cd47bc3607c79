// ohls_mem_load: streaming load unit between a pipelined datapath and one AXI4 read
// port. The datapath sends element addresses (valid/ready); the unit returns the
// elements in request order (valid/ready), so the pipeline can stall on either side.
//
// How requests are served: every beat fetched gets a sequence number (the order of its
// AR, which is also its arrival order: one ARID). A request is tagged with the sequence
// number of the beat holding its element and queued; the response side drops head beats
// until the head is the request's beat and answers from it, so requests in one beat
// share it. With STREAM = 1 a request for the beat after the previous request's beat
// continues a stream: after its first beat the unit keeps fetching the following beats
// in INCR bursts of up to MAX_BURST full-width beats (never across 4 KiB, never at or past
// stream_end) while the data FIFO has room, with up to MAX_OUTSTANDING bursts in flight,
// so stride-1 streams run at one element per cycle. Any other request (and every request
// with STREAM = 0) starts a fetch of its own beat (a one-beat burst with STREAM = 0),
// one such request per cycle at best; beats prefetched for an abandoned stream are
// dropped unused (a fresh request waits until the beat of the request before it has
// been asked for, so no pending request loses its beat). RREADY stays high: an AR is issued only with room for its whole
// burst. flush forgets what was fetched (pulse it when the buffer may have been written
// since, e.g. at kernel start): the next request fetches afresh, while requests accepted
// before still get the beats fetched for them.
// Addresses are aligned to ELEM_BYTES (OpenCL's natural alignment). err is set (sticky
// until reset) by any RRESP other than OKAY; idle is high when no request is pending and
// no burst is in flight.
//
// Parameters
//   DATA_WIDTH       bus bits (32..256, a power of two)
//   ADDR_WIDTH       address bits (>= 13)
//   ELEM_BYTES       bytes per element (1, 2, 4 or 8; at most DATA_WIDTH / 8)
//   STREAM           1: stride-1 requests are served from prefetched bursts
//   MAX_BURST        beats per burst (1..256)
//   MAX_OUTSTANDING  bursts in flight (>= 1)
//   FIFO_DEPTH       data FIFO in beats (>= MAX_BURST; room for every outstanding burst
//                    by default, so bursts overlap fully)
//   REQ_DEPTH        requests accepted but not answered (>= 2; cover the read latency
//                    for one request per cycle)
//   ID_WIDTH, AXI_ID the ARID width and value
// Ports
//   clk, rst                                 clock; synchronous active-high reset
//   req_valid, req_ready, req_addr           element requests (valid/ready)
//   resp_valid, resp_ready, resp_data        elements in request order (valid/ready)
//   stream_end                               byte address prefetching stops at (all ones:
//                                            no limit)
//   flush                                    forget the current stream
//   m_ar*, m_r*                              AXI4 read address and data channels
//   err, idle                                status
module ohls_mem_load #(
    parameter DATA_WIDTH = 256,
    parameter ADDR_WIDTH = 32,
    parameter ELEM_BYTES = 4,
    parameter STREAM = 1,
    parameter MAX_BURST = 16,
    parameter MAX_OUTSTANDING = 4,
    parameter FIFO_DEPTH = MAX_BURST * MAX_OUTSTANDING,
    parameter REQ_DEPTH = 64,
    parameter ID_WIDTH = 1,
    parameter AXI_ID = 0
) (
    input  wire                    clk,
    input  wire                    rst,
    input  wire                    req_valid,
    output wire                    req_ready,
    input  wire [ADDR_WIDTH-1:0]   req_addr,
    output wire                    resp_valid,
    input  wire                    resp_ready,
    output wire [8*ELEM_BYTES-1:0] resp_data,
    input  wire [ADDR_WIDTH-1:0]   stream_end,
    input  wire                    flush,
    output reg                     m_arvalid,
    input  wire                    m_arready,
    output reg  [ADDR_WIDTH-1:0]   m_araddr,
    output reg  [7:0]              m_arlen,
    output wire [2:0]              m_arsize,
    output wire [1:0]              m_arburst,
    output wire [ID_WIDTH-1:0]     m_arid,
    input  wire                    m_rvalid,
    output wire                    m_rready,
    input  wire [DATA_WIDTH-1:0]   m_rdata,
    input  wire [1:0]              m_rresp,
    input  wire                    m_rlast,
    input  wire [ID_WIDTH-1:0]     m_rid,
    output reg                     err,
    output wire                    idle
);
    localparam B = DATA_WIDTH / 8;
    localparam OB = $clog2(B);
    localparam EW = 8 * ELEM_BYTES;
    localparam FCW = $clog2(FIFO_DEPTH + 1);
    // Reserved-beat arithmetic: room for FIFO_DEPTH plus a 256-beat burst.
    localparam RW = (FCW + 1 > 10) ? FCW + 1 : 10;
    localparam OW = $clog2(MAX_OUTSTANDING + 1);
    // Sequence numbers compare for equality only; pending tags lie within twice the
    // FIFO's beats of the head, so a few spare bits rule out wrap-around aliasing.
    localparam SW0 = $clog2(FIFO_DEPTH + 1) + 3;
    localparam SW = (SW0 > 10) ? SW0 : 10;
    localparam QW = $clog2(REQ_DEPTH + 1);
    localparam integer FD_I = FIFO_DEPTH;
    localparam integer MO_I = MAX_OUTSTANDING;
    localparam integer MB_I = MAX_BURST;
    localparam integer ID_I = AXI_ID;
    localparam integer SIZE_I = OB;
    localparam integer B_I = B;
    localparam [RW-1:0] FIFO_DEPTH_R = FD_I[RW-1:0];
    localparam [OW-1:0] MAX_OUT = MO_I[OW-1:0];
    localparam [8:0] MAX_BURST_9 = MB_I[8:0];
    localparam [ADDR_WIDTH-1:0] BYTES_A = B_I[ADDR_WIDTH-1:0];

    generate
        if (FIFO_DEPTH < MAX_BURST) begin : g_bad_fifo_depth
            ohls_error_fifo_depth_below_max_burst u_error ();
        end
    endgenerate

    assign m_arsize = SIZE_I[2:0];
    assign m_arburst = 2'b01;
    assign m_arid = ID_I[ID_WIDTH-1:0];

    // ---- Request side: tag each request with its beat's sequence number ----
    reg [SW-1:0] issued;          // beats asked for so far (the next beat's number)
    reg cur_valid;                // cur_ba/cur_seq describe the last request's beat
    reg stale;                    // flushed since: the next request fetches afresh
    reg [ADDR_WIDTH-1:0] cur_ba;
    reg [SW-1:0] cur_seq;
    reg pf_first;                 // the first burst of a new fetch is not issued yet
    reg pf_active;                // a stream is being prefetched from pf_next
    reg [ADDR_WIDTH-1:0] pf_next;
    wire q_in_ready;

    wire [ADDR_WIDTH-1:0] ba = {req_addr[ADDR_WIDTH-1:OB], {OB{1'b0}}};
    wire [OB-1:0] off = req_addr[OB-1:0];
    wire same_beat = cur_valid && !stale && (ba == cur_ba);
    // The next beat of a live stream: fetched already or still to be prefetched.
    wire next_beat = (STREAM != 0) && cur_valid && !stale && pf_active && (ba == cur_ba + BYTES_A)
        && ((ba < pf_next) || (ba < stream_end));
    wire fresh = !same_beat && !next_beat;

    wire ar_free = !m_arvalid || m_arready;
    reg [RW-1:0] reserved;        // beats asked for whose data has not arrived
    reg [OW-1:0] outstanding;
    wire [FCW-1:0] fifo_count;

    // Burst from pf_next: up to MAX_BURST, the 4 KiB page and stream_end (a new fetch
    // always takes at least its own beat; STREAM = 0 fetches one beat).
    wire [12:0] to_page = 13'd4096 - {1'b0, pf_next[11:0]};
    wire [12:0] page_beats = {{OB{1'b0}}, to_page[12:OB]};
    wire [ADDR_WIDTH-1:0] to_end = stream_end - pf_next;
    wire end_far = (stream_end > pf_next) && (to_end[ADDR_WIDTH-1:OB] >= {{(ADDR_WIDTH - 9 - OB) {1'b0}}, 9'd256});
    wire [8:0] end_beats = (stream_end <= pf_next) ? 9'd0
        : end_far ? 9'd256
        : to_end[OB+8:OB] + {8'd0, (to_end[OB-1:0] != {OB{1'b0}})};
    wire [8:0] page_9 = (page_beats > 13'd256) ? 9'd256 : page_beats[8:0];
    wire [8:0] lim_a = (page_9 < MAX_BURST_9) ? page_9 : MAX_BURST_9;
    wire [8:0] lim_b = (end_beats < lim_a) ? end_beats : lim_a;
    wire [8:0] burst_len = (STREAM == 0) ? 9'd1 : (lim_b == 9'd0) ? 9'd1 : lim_b;
    wire want = pf_first || ((STREAM != 0) && pf_active && (end_beats != 9'd0));
    wire [RW-1:0] need = {{(RW - FCW) {1'b0}}, fifo_count} + reserved + {{(RW - 9) {1'b0}}, burst_len};
    wire issue = want && ar_free && (outstanding != MAX_OUT) && (need <= FIFO_DEPTH_R);
    wire [SW-1:0] issued_next = issued + (issue ? {{(SW - 9) {1'b0}}, burst_len} : {SW{1'b0}});

    // A fresh request redirects the prefetcher, so it waits until the beat of the last
    // request has gone out (the first beat of a fresh fetch, or the stream's next beat):
    // otherwise that beat would never be fetched.
    wire [ADDR_WIDTH-1:0] pf_after = pf_next + {{(ADDR_WIDTH - 9 - OB) {1'b0}}, burst_len, {OB{1'b0}}};
    wire behind = (pf_first && !issue)
        || (cur_valid && pf_active && !(cur_ba < (issue ? pf_after : pf_next)));
    assign req_ready = q_in_ready && !(fresh && behind);
    wire accept = req_valid && req_ready;
    wire [SW-1:0] tag = same_beat ? cur_seq : next_beat ? cur_seq + 1'b1 : issued_next;

    wire r_beat = m_rvalid && m_rready;
    always @(posedge clk) begin
        if (rst) begin
            m_arvalid <= 1'b0;
            reserved <= {RW{1'b0}};
            outstanding <= {OW{1'b0}};
            issued <= {SW{1'b0}};
            cur_valid <= 1'b0;
            stale <= 1'b0;
            pf_first <= 1'b0;
            pf_active <= 1'b0;
            err <= 1'b0;
        end else begin
            if (issue) begin
                m_arvalid <= 1'b1;
                m_araddr <= pf_next;
                m_arlen <= burst_len[7:0] - 8'd1;
            end else if (m_arready) begin
                m_arvalid <= 1'b0;
            end
            issued <= issued_next;
            reserved <= reserved + (issue ? {{(RW - 9) {1'b0}}, burst_len} : {RW{1'b0}})
                - {{(RW - 1) {1'b0}}, r_beat};
            if (issue && !(r_beat && m_rlast)) outstanding <= outstanding + 1'b1;
            else if (!issue && r_beat && m_rlast) outstanding <= outstanding - 1'b1;
            if (r_beat && m_rresp != 2'b00) err <= 1'b1;
            if (accept && fresh) begin
                pf_next <= ba;
                pf_first <= 1'b1;
                pf_active <= (STREAM != 0);
            end else if (issue) begin
                pf_next <= pf_after;
                pf_first <= 1'b0;
            end
            if (accept) begin
                cur_valid <= 1'b1;
                cur_ba <= ba;
                cur_seq <= tag;
            end
            // The last request's beat is still fetched (a pending request needs it).
            if (accept) stale <= 1'b0;
            else if (flush) stale <= 1'b1;
        end
    end

    // ---- Request queue: {tag, offset} per pending request ----
    wire [QW-1:0] unused_q_count;
    wire unused_q_full;
    wire unused_q_empty;
    wire d_valid;
    wire [SW+OB-1:0] d_bits;
    wire pop_d;
    ohls_fifo #(
        .WIDTH(SW + OB),
        .DEPTH(REQ_DEPTH)
    ) u_req (
        .clk(clk),
        .rst(rst),
        .in_valid(accept),
        .in_ready(q_in_ready),
        .in_data({tag, off}),
        .out_valid(d_valid),
        .out_ready(pop_d),
        .out_data(d_bits),
        .count(unused_q_count),
        .full(unused_q_full),
        .empty(unused_q_empty)
    );
    wire [SW-1:0] d_tag = d_bits[SW+OB-1:OB];
    wire [OB-1:0] d_off = d_bits[OB-1:0];

    // ---- Beat FIFO and the response side ----
    wire unused_data_full;
    wire unused_data_empty;
    wire fifo_in_ready;
    wire h_valid;
    wire [DATA_WIDTH-1:0] h_data;
    reg [SW-1:0] head_seq;        // the sequence number of the FIFO's head beat
    // The beat in use: a request for it is answered from here, the first request for a
    // new beat straight from the FIFO's head while the beat moves here (no bubble).
    reg s_valid;
    reg [SW-1:0] s_seq;
    reg [DATA_WIDTH-1:0] s_beat;
    assign m_rready = fifo_in_ready;
    wire hit_s = d_valid && s_valid && (s_seq == d_tag);
    wire hit_h = d_valid && !hit_s && h_valid && (head_seq == d_tag);
    // A head beat older than the request's is never needed again.
    wire drop = d_valid && !hit_s && h_valid && (head_seq != d_tag);
    wire pop_h = drop || hit_h;
    ohls_fifo #(
        .WIDTH(DATA_WIDTH),
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
    always @(posedge clk) begin
        if (rst) begin
            head_seq <= {SW{1'b0}};
            s_valid <= 1'b0;
        end else begin
            if (pop_h) head_seq <= head_seq + 1'b1;
            if (hit_h) s_valid <= 1'b1;
            else if (drop) s_valid <= 1'b0;
        end
    end
    always @(posedge clk) begin
        if (hit_h) begin
            s_seq <= head_seq;
            s_beat <= h_data;
        end
    end

    assign resp_valid = hit_s || hit_h;
    assign pop_d = resp_valid && resp_ready;
    wire [DATA_WIDTH-1:0] beat = hit_s ? s_beat : h_data;
    wire [DATA_WIDTH-1:0] shifted = beat >> {d_off, 3'b000};
    assign resp_data = shifted[EW-1:0];

    assign idle = !d_valid && (outstanding == {OW{1'b0}}) && !m_arvalid && !pf_first;

    wire unused_ld = &{1'b0, m_rid, unused_q_count, shifted[DATA_WIDTH-1:EW], to_page[OB-1:0],
                       page_beats[12:9], to_end};
endmodule
