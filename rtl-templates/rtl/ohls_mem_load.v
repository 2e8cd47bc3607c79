// ohls_mem_load: streaming load unit between a pipelined datapath and one AXI4 read
// port. The datapath sends element addresses (valid/ready); the unit returns the
// elements in request order (valid/ready), so the pipeline can stall on either side.
//
// How requests are served: every beat fetched gets a sequence number (the order of its
// AR, which is also its arrival order: one ARID). A request is tagged with the sequence
// number of the beat holding its element's first byte and queued; the response side
// drops head beats until the head is the request's beat and answers from it, so requests
// in one beat share it. With STREAM = 1 a request for the beat after the previous
// request's beat continues a stream: after its first beat the unit keeps fetching the
// following beats in INCR bursts of up to MAX_BURST full-width beats (never across 4 KiB,
// never at or past stream_end) while the data FIFO has room, with up to MAX_OUTSTANDING
// bursts in flight, so stride-1 streams run at one element per cycle. Any other request
// (and every request with STREAM = 0) starts a fetch of its own beats (one-beat bursts
// with STREAM = 0, two beats when its element spans two), one such request per cycle at
// best; beats prefetched for an abandoned stream are dropped unused (a fresh request
// waits until the beats of the request before it have been asked for, so no pending
// request loses its beat). RREADY stays high: an AR is issued only with room for its
// whole burst. flush forgets what was fetched (pulse it when the buffer may have been
// written since, e.g. at kernel start): the next request fetches afresh, while requests
// accepted before still get the beats fetched for them.
//
// Elements that span two beats (ALIGN_BYTES < ELEM_BYTES, e.g. vload4 on a float
// pointer: 16 bytes aligned to 4): the element is assembled from its first beat (tag t)
// and the next one (t + 1), which the unit always fetches in sequence right after it:
// in the same stream with STREAM = 1 (a request whose second beat lies at or past
// stream_end and was not fetched yet fetches both its beats afresh); with STREAM = 0 a
// spanning request's fetch covers both beats (bursts of at most two beats), and a request
// whose first beat is the previous request's first or last beat fetches only the beats
// it adds, so no beat is read twice. The response side keeps the last two beats taken
// from the FIFO (s, and p, the beat before it) beside the FIFO's head, so a
// stride-ELEM_BYTES stream still answers one element per cycle, every beat fetched once:
// the element is taken from {head, s} and the head moves to s (s to p), and a request
// that needs the same two beats again takes them from {s, p}. When ALIGN_BYTES =
// ELEM_BYTES (the default) no element spans two beats and none of that logic is built:
// the unit behaves as the aligned unit always has, cycle for cycle.
//
// Addresses are aligned to ALIGN_BYTES (the compiler's guarantee; the low address bits
// below it are ignored). A fresh request fetches the beats of its own bytes even at or
// past stream_end; only prefetching stops there. err is set (sticky until reset) by any
// RRESP other than OKAY; idle is high when no request is pending and no burst is in
// flight or waiting to be issued.
//
// Parameters
//   DATA_WIDTH       bus bits (32..256, a power of two)
//   ADDR_WIDTH       address bits (>= 13)
//   ELEM_BYTES       bytes per element (a power of two, at most DATA_WIDTH / 8)
//   STREAM           1: stride-1 requests are served from prefetched bursts
//   MAX_BURST        beats per burst (1..256)
//   MAX_OUTSTANDING  bursts in flight (>= 1)
//   FIFO_DEPTH       data FIFO in beats (>= MAX_BURST; room for every outstanding burst
//                    by default, so bursts overlap fully)
//   REQ_DEPTH        requests accepted but not answered (>= 2; cover the read latency
//                    for one request per cycle)
//   ID_WIDTH, AXI_ID the ARID width and value
//   ALIGN_BYTES      alignment of every request address (a power of two, 1..ELEM_BYTES;
//                    default ELEM_BYTES, OpenCL's natural alignment). Below ELEM_BYTES an
//                    element may span two beats.
//   FRESH            1 (with STREAM = 0): no request shares the previous request's beats;
//                    each fetches its own after it is accepted, so it sees every write
//                    acknowledged before then (a pipeline's load ordered after its
//                    earlier iterations' stores). 0: the default sharing.
// Ports
//   clk, rst                                 clock; synchronous active-high reset
//   req_valid, req_ready, req_addr           element requests (valid/ready)
//   resp_valid, resp_ready, resp_data        elements in request order (valid/ready;
//                                            byte i of resp_data is memory byte
//                                            req_addr + i, little-endian)
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
    parameter AXI_ID = 0,
    parameter ALIGN_BYTES = ELEM_BYTES,
    parameter FRESH = 0
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
    // The element's position in its beat, in ALIGN_BYTES units (the bits below are 0).
    localparam AB = $clog2(ALIGN_BYTES);
    localparam PW = (OB > AB) ? OB - AB : 1;
    // Elements may span two beats only when they are less aligned than their size.
    localparam SPAN = (ALIGN_BYTES < ELEM_BYTES) ? 1 : 0;
    // The last position at which the element still fits in its first beat.
    localparam integer LAST_POS_I = (B - ELEM_BYTES) / ALIGN_BYTES;
    localparam [PW:0] LAST_POS = LAST_POS_I[PW:0];
    // Beats still to be fetched for accepted requests: 1 (aligned) or up to 2 (spanning).
    localparam DMW = (SPAN != 0) ? 2 : 1;
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
        if ((ELEM_BYTES & (ELEM_BYTES - 1)) != 0 || ELEM_BYTES > B) begin : g_bad_elem_bytes
            ohls_error_elem_bytes_not_a_power_of_two_up_to_the_beat u_error ();
        end
        if ((ALIGN_BYTES & (ALIGN_BYTES - 1)) != 0 || ALIGN_BYTES < 1
            || ALIGN_BYTES > ELEM_BYTES) begin : g_bad_align_bytes
            ohls_error_align_bytes_not_a_power_of_two_up_to_elem_bytes u_error ();
        end
    endgenerate

    assign m_arsize = SIZE_I[2:0];
    assign m_arburst = 2'b01;
    assign m_arid = ID_I[ID_WIDTH-1:0];

    // ---- Request side: tag each request with its first beat's sequence number ----
    reg [SW-1:0] issued;          // beats asked for so far (the next beat's number)
    reg cur_valid;                // cur_* describe the last request's beats
    reg stale;                    // flushed since: the next request fetches afresh
    reg [ADDR_WIDTH-1:0] cur_ba;  // its first beat
    reg [SW-1:0] cur_seq;         // and that beat's sequence number
    reg cur_span;                 // its element continues in beat cur_ba + B (cur_seq + 1)
    reg [DMW-1:0] dem;            // beats from pf_next that must be fetched (demanded)
    reg pf_active;                // a stream is being prefetched from pf_next
    reg [ADDR_WIDTH-1:0] pf_next;
    wire q_in_ready;

    wire [ADDR_WIDTH-1:0] ba = {req_addr[ADDR_WIDTH-1:OB], {OB{1'b0}}};
    wire [PW-1:0] pos;
    generate
        if (OB > AB) begin : g_pos
            assign pos = req_addr[OB-1:AB];
        end else begin : g_pos_none
            // One element per beat: it always starts the beat.
            assign pos = {PW{1'b0}};
        end
        if (AB > 0) begin : g_align_bits
            // Zero by the alignment guarantee.
            wire unused_align = &{1'b0, req_addr[AB-1:0]};
        end
    endgenerate
    // The element runs past its first beat (only possible when SPAN).
    wire span_in = (SPAN != 0) && ({1'b0, pos} > LAST_POS);
    wire live = cur_valid && !stale;
    wire [ADDR_WIDTH-1:0] cur_tail = cur_ba + BYTES_A;
    wire [ADDR_WIDTH-1:0] cur_last = ((SPAN != 0) && cur_span) ? cur_tail : cur_ba;
    wire [ADDR_WIDTH-1:0] tail = ba + BYTES_A;
    wire same_beat = (FRESH == 0) && live && (ba == cur_ba);
    // The next beat of a live stream: fetched already, still to be prefetched, or the
    // last request's second beat. With STREAM = 0 it counts only for spanning elements,
    // whose beats chain (an aligned unit treats it as a fresh request, as it always has).
    wire next_beat = (STREAM != 0)
        ? (live && pf_active && (ba == cur_tail)
           && ((ba < pf_next) || (ba < stream_end) || ((SPAN != 0) && cur_span)))
        : ((FRESH == 0) && (SPAN != 0) && live && (ba == cur_tail));
    // With STREAM = 1 a spanning element's second beat must come from the same run too:
    // the last request's second beat, fetched already, or to be prefetched. Otherwise
    // (only past stream_end) the request fetches afresh.
    wire tail_ok = !span_in || (same_beat && cur_span) || (tail < pf_next) || (tail < stream_end);
    // With STREAM = 0 the beats fetched end with the last request's last beat: a request
    // that chains to it fetches the beats it adds, from cur_last + B on.
    wire [DMW-1:0] ext_cnt;
    generate
        if (SPAN != 0) begin : g_ext
            assign ext_cnt = same_beat ? {1'b0, span_in && !cur_span}
                : cur_span ? {1'b0, span_in}
                : {span_in, !span_in};
        end else begin : g_ext_none
            assign ext_cnt = {DMW{1'b0}};
        end
    endgenerate
    wire chained = same_beat || next_beat;
    wire fresh = !chained || ((STREAM != 0) && !tail_ok);
    wire ext = (STREAM == 0) && (SPAN != 0) && chained && (ext_cnt != {DMW{1'b0}});
    wire fetch = fresh || ext;
    wire [ADDR_WIDTH-1:0] fetch_at = fresh ? ba : cur_last + BYTES_A;
    wire [DMW-1:0] fetch_cnt;
    generate
        if (SPAN != 0) begin : g_cnt
            assign fetch_cnt = fresh ? {span_in, !span_in} : ext_cnt;
        end else begin : g_cnt_one
            assign fetch_cnt = 1'b1;
        end
    endgenerate

    wire ar_free = !m_arvalid || m_arready;
    reg [RW-1:0] reserved;        // beats asked for whose data has not arrived
    reg [OW-1:0] outstanding;
    wire [FCW-1:0] fifo_count;

    // Burst from pf_next: up to MAX_BURST, the 4 KiB page and stream_end, but at least the
    // demanded beats the page allows (a new fetch always takes its own beats; STREAM = 0
    // fetches only those).
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
    wire [8:0] dem_9 = {{(9 - DMW) {1'b0}}, dem};
    wire [8:0] dem_min = (SPAN != 0) ? ((dem_9 < lim_a) ? dem_9 : lim_a) : 9'd1;
    wire [8:0] burst_len = (STREAM == 0) ? dem_min
        : (SPAN == 0) ? ((lim_b == 9'd0) ? 9'd1 : lim_b)
        : (lim_b < dem_min) ? dem_min : lim_b;
    wire want = (dem != {DMW{1'b0}}) || ((STREAM != 0) && pf_active && (end_beats != 9'd0));
    wire [RW-1:0] need = {{(RW - FCW) {1'b0}}, fifo_count} + reserved + {{(RW - 9) {1'b0}}, burst_len};
    wire issue = want && ar_free && (outstanding != MAX_OUT) && (need <= FIFO_DEPTH_R);
    wire [SW-1:0] issued_next = issued + (issue ? {{(SW - 9) {1'b0}}, burst_len} : {SW{1'b0}});
    // Demanded beats left once a burst goes out.
    wire [DMW-1:0] dem_issued;
    generate
        if (SPAN != 0) begin : g_dem
            assign dem_issued = (dem_9 > burst_len) ? dem - burst_len[DMW-1:0] : {DMW{1'b0}};
        end else begin : g_dem_one
            assign dem_issued = 1'b0;
        end
    endgenerate
    wire [DMW-1:0] dem_after = issue ? dem_issued : dem;

    // A fetching request redirects the prefetcher, so it waits until the beats of the last
    // request have gone out (its demanded beats, or the stream's next beats): otherwise
    // they would never be fetched, or (STREAM = 0) not right before the new ones.
    wire [ADDR_WIDTH-1:0] pf_after = pf_next + {{(ADDR_WIDTH - 9 - OB) {1'b0}}, burst_len, {OB{1'b0}}};
    wire behind = (dem_after != {DMW{1'b0}})
        || (cur_valid && pf_active && !(cur_last < (issue ? pf_after : pf_next)));
    assign req_ready = q_in_ready && !(fetch && behind);
    wire accept = req_valid && req_ready;
    // A fresh request's first beat is the next one fetched (even in the same beat as the
    // last request: its second beat must follow it in sequence).
    wire [SW-1:0] tag = fresh ? issued_next : same_beat ? cur_seq : cur_seq + 1'b1;

    wire r_beat = m_rvalid && m_rready;
    always @(posedge clk) begin
        if (rst) begin
            m_arvalid <= 1'b0;
            reserved <= {RW{1'b0}};
            outstanding <= {OW{1'b0}};
            issued <= {SW{1'b0}};
            cur_valid <= 1'b0;
            stale <= 1'b0;
            dem <= {DMW{1'b0}};
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
            if (accept && fetch) begin
                pf_next <= fetch_at;
                dem <= fetch_cnt;
                pf_active <= (STREAM != 0);
            end else if (issue) begin
                pf_next <= pf_after;
                dem <= dem_issued;
            end
            if (accept) begin
                cur_valid <= 1'b1;
                cur_ba <= ba;
                cur_seq <= tag;
            end
            // The last request's beats are still fetched (a pending request needs them).
            if (accept) stale <= 1'b0;
            else if (flush) stale <= 1'b1;
        end
    end
    // A request in the last request's beat keeps that beat's second one: it was fetched
    // (or demanded) right after it, whether or not this element needs it.
    always @(posedge clk) begin
        if (accept) cur_span <= span_in || (same_beat && !fresh && cur_span);
    end

    // ---- Request queue: {tag, position} per pending request ----
    wire [QW-1:0] unused_q_count;
    wire unused_q_full;
    wire unused_q_empty;
    wire d_valid;
    wire [SW+PW-1:0] d_bits;
    wire pop_d;
    ohls_fifo #(
        .WIDTH(SW + PW),
        .DEPTH(REQ_DEPTH)
    ) u_req (
        .clk(clk),
        .rst(rst),
        .in_valid(accept),
        .in_ready(q_in_ready),
        .in_data({tag, pos}),
        .out_valid(d_valid),
        .out_ready(pop_d),
        .out_data(d_bits),
        .count(unused_q_count),
        .full(unused_q_full),
        .empty(unused_q_empty)
    );
    wire [SW-1:0] d_tag = d_bits[SW+PW-1:PW];
    wire [PW-1:0] d_pos = d_bits[PW-1:0];

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
    wire pop_h;
    assign m_rready = fifo_in_ready;
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
        if (rst) head_seq <= {SW{1'b0}};
        else if (pop_h) head_seq <= head_seq + 1'b1;
    end

    // The element's byte offset in bits: its position times ALIGN_BYTES bytes.
    wire [PW+AB+2:0] d_shift = {d_pos, {(AB + 3) {1'b0}}};
    generate
        if (SPAN == 0) begin : g_aligned
            // Every element lies in one beat: the beat in use (s) or the FIFO's head.
            wire hit_s = d_valid && s_valid && (s_seq == d_tag);
            wire hit_h = d_valid && !hit_s && h_valid && (head_seq == d_tag);
            // A head beat older than the request's is never needed again.
            wire drop = d_valid && !hit_s && h_valid && (head_seq != d_tag);
            assign pop_h = drop || hit_h;
            always @(posedge clk) begin
                if (rst) s_valid <= 1'b0;
                else if (hit_h) s_valid <= 1'b1;
                else if (drop) s_valid <= 1'b0;
            end
            always @(posedge clk) begin
                if (hit_h) begin
                    s_seq <= head_seq;
                    s_beat <= h_data;
                end
            end
            assign resp_valid = hit_s || hit_h;
            wire [DATA_WIDTH-1:0] beat = hit_s ? s_beat : h_data;
            wire [DATA_WIDTH-1:0] shifted = beat >> d_shift;
            assign resp_data = shifted[EW-1:0];
            if (EW < DATA_WIDTH) begin : g_unused
                wire unused_al = &{1'b0, shifted[DATA_WIDTH-1:EW]};
            end
        end else begin : g_span
            // The last two beats taken from the FIFO: s (sequence s_seq) and, when p_valid,
            // p (sequence s_seq - 1). Tags only grow, and a spanning request at t takes
            // beat t + 1 off the FIFO only once beat t is in s, so a request's beats are
            // always among p, s and the head.
            reg p_valid;
            reg [DATA_WIDTH-1:0] p_beat;
            wire d_span = {1'b0, d_pos} > LAST_POS;
            wire [SW-1:0] d_tag1 = d_tag + 1'b1;
            wire at_p = p_valid && s_valid && (s_seq == d_tag1);   // p holds beat t
            wire s_t = s_valid && (s_seq == d_tag);
            wire h_t = h_valid && (head_seq == d_tag);
            wire h_t1 = h_valid && (head_seq == d_tag1);
            // One beat: from p, s or the head (then the head moves to s).
            wire ans_p = d_valid && !d_span && at_p;
            wire ans_s = d_valid && !d_span && !at_p && s_t;
            wire ans_h = d_valid && !d_span && !at_p && !s_t && h_t;
            // Two beats: {s, p} or {head, s} (then the head moves to s).
            wire ans_ps = d_valid && d_span && at_p;
            wire ans_sh = d_valid && d_span && !at_p && s_t && h_t1;
            // The first beat is at the head: move it to s, answer next cycle.
            wire load = d_valid && d_span && !at_p && !s_t && h_t;
            wire drop = d_valid && !at_p && !s_t && h_valid && !h_t;
            wire shift = ans_h || ans_sh || load;
            assign pop_h = drop || shift;
            always @(posedge clk) begin
                if (rst) begin
                    s_valid <= 1'b0;
                    p_valid <= 1'b0;
                end else if (shift) begin
                    s_valid <= 1'b1;
                    p_valid <= s_valid && (s_seq + 1'b1 == head_seq);
                end else if (drop) begin
                    s_valid <= 1'b0;
                    p_valid <= 1'b0;
                end
            end
            always @(posedge clk) begin
                if (shift) begin
                    s_seq <= head_seq;
                    s_beat <= h_data;
                    p_beat <= s_beat;
                end
            end
            assign resp_valid = ans_p || ans_s || ans_h || ans_ps || ans_sh;
            wire [DATA_WIDTH-1:0] lo = (ans_p || ans_ps) ? p_beat : (ans_s || ans_sh) ? s_beat : h_data;
            wire [DATA_WIDTH-1:0] hi = ans_ps ? s_beat : h_data;
            wire [2*DATA_WIDTH-1:0] window = {hi, lo};
            wire [2*DATA_WIDTH-1:0] shifted = window >> d_shift;
            assign resp_data = shifted[EW-1:0];
            wire unused_sp = &{1'b0, shifted[2*DATA_WIDTH-1:EW]};
        end
    endgenerate
    assign pop_d = resp_valid && resp_ready;

    assign idle = !d_valid && (outstanding == {OW{1'b0}}) && !m_arvalid && (dem == {DMW{1'b0}});

    wire unused_ld = &{1'b0, m_rid, unused_q_count, to_page[OB-1:0], page_beats[12:9], to_end};
endmodule
