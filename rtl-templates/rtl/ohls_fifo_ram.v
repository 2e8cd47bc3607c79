// ohls_fifo_ram: block-RAM first-word-fall-through FIFO for large depths.
//
// Items are stored in a simple dual-port RAM written and read in the template Quartus
// (M10K) and Yosys (BRAM) infer: one write port, one read port with a registered read.
// Because the RAM read takes a cycle, a two-entry register buffer after it prefetches the
// head, so out_data is a register (first word fall through) and a push and a pop can
// happen every cycle. Latency: an item pushed into an empty FIFO appears on out_valid
// 3 cycles later (RAM write, RAM read, output buffer). Throughput: 1 item per cycle
// when DEPTH >= 3 (three items are in flight in the RAM-read loop; DEPTH = 2 runs at
// half rate).
// Handshake: valid/ready with AXI-stream rules; in_ready = !full (never looks at
// out_ready); out_data stays stable while out_valid && !out_ready.
// The RAM read enable looks at out_ready (to keep the prefetch buffer full at one item
// per cycle), so out_ready reaches the RAM address register combinationally.
//
// Parameters
//   WIDTH  bits per item (>= 1)
//   DEPTH  number of items it holds (>= 2, need not be a power of two); the RAM has DEPTH
//          words, of which up to 2 may sit in the output buffer instead
// Ports
//   clk, rst              clock; synchronous active-high reset (empties the FIFO)
//   in_valid, in_ready    push side handshake; in_data is the item pushed
//   out_valid, out_ready  pop side handshake; out_data is the head item
//   count                 items held now, RAM and output buffer ($clog2(DEPTH+1) bits)
//   full, empty           count == DEPTH, count == 0
module ohls_fifo_ram #(
    parameter WIDTH = 32,
    parameter DEPTH = 512
) (
    input  wire                       clk,
    input  wire                       rst,
    input  wire                       in_valid,
    output wire                       in_ready,
    input  wire [WIDTH-1:0]           in_data,
    output wire                       out_valid,
    input  wire                       out_ready,
    output wire [WIDTH-1:0]           out_data,
    output wire [$clog2(DEPTH+1)-1:0] count,
    output wire                       full,
    output wire                       empty
);
    localparam PW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
    localparam CW = $clog2(DEPTH + 1);
    localparam integer LAST_I = DEPTH - 1;
    localparam integer DEPTH_I = DEPTH;
    localparam [PW-1:0] LAST = LAST_I[PW-1:0];
    localparam [CW-1:0] FULL_COUNT = DEPTH_I[CW-1:0];

    reg [WIDTH-1:0] mem[0:DEPTH-1];
    reg [WIDTH-1:0] ram_q;
    reg [PW-1:0] wr_ptr;
    reg [PW-1:0] rd_ptr;
    reg [CW-1:0] cnt;      // items in the whole FIFO
    reg [CW-1:0] ram_cnt;  // items in the RAM not yet read out
    reg rd_pending;        // ram_q holds an item read last cycle
    reg [WIDTH-1:0] ob0;   // output buffer head
    reg [WIDTH-1:0] ob1;
    reg [1:0] ob_cnt;

    wire push = in_valid && in_ready;
    wire pop = out_valid && out_ready;
    // Read when the buffer will have room for the item next cycle, counting the one
    // in flight and the one leaving now.
    wire [2:0] ob_next = {1'b0, ob_cnt} + {2'b00, rd_pending};
    wire ob_room = (ob_next < {2'b01, pop});
    wire rd_en = (ram_cnt != {CW{1'b0}}) && ob_room;

    assign in_ready = (cnt != FULL_COUNT);
    assign out_valid = (ob_cnt != 2'd0);
    assign out_data = ob0;
    assign count = cnt;
    assign full = !in_ready;
    assign empty = (cnt == {CW{1'b0}});

    always @(posedge clk) begin
        if (push) mem[wr_ptr] <= in_data;
        if (rd_en) ram_q <= mem[rd_ptr];
    end

    always @(posedge clk) begin
        if (rst) begin
            wr_ptr <= {PW{1'b0}};
            rd_ptr <= {PW{1'b0}};
            cnt <= {CW{1'b0}};
            ram_cnt <= {CW{1'b0}};
            rd_pending <= 1'b0;
            ob_cnt <= 2'd0;
        end else begin
            if (push) wr_ptr <= (wr_ptr == LAST) ? {PW{1'b0}} : wr_ptr + 1'b1;
            if (rd_en) rd_ptr <= (rd_ptr == LAST) ? {PW{1'b0}} : rd_ptr + 1'b1;
            if (push && !pop) cnt <= cnt + 1'b1;
            else if (pop && !push) cnt <= cnt - 1'b1;
            if (push && !rd_en) ram_cnt <= ram_cnt + 1'b1;
            else if (rd_en && !push) ram_cnt <= ram_cnt - 1'b1;
            rd_pending <= rd_en;
            if (rd_pending && !pop) ob_cnt <= ob_cnt + 2'd1;
            else if (pop && !rd_pending) ob_cnt <= ob_cnt - 2'd1;
        end
    end

    // Output buffer data: the item arriving from the RAM goes behind the ones held.
    always @(posedge clk) begin
        if (pop) begin
            ob0 <= (ob_cnt == 2'd2) ? ob1 : ram_q;
            if (ob_cnt == 2'd2) ob1 <= ram_q;
        end else if (rd_pending) begin
            if (ob_cnt == 2'd0) ob0 <= ram_q;
            else ob1 <= ram_q;
        end
    end
endmodule
