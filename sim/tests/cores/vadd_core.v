// vadd_core: a kernel core written by hand from the RTL templates, to test the simulation
// harness before the code generator exists: c[i] = a[i] + b[i] on binary32 for
// i < GLOBAL_SIZE0 (ohls_fp_add, round to nearest even).
//
// Interface: the kernel core contract of sim/README.md. Control registers of
// ohls_axil_csr (ADDR_WIDTH 8): arguments at 0x40 a, 0x44 b, 0x48 c (32-bit addresses)
// and 0x4C `fault`, a test knob that plants one defect so the harness's checks can be
// tested without more builds: 0 none, 1 reads a from just past its end, 2 never reports
// DONE, 3 holds WLAST low on c, 4 toggles ARADDR bit 2 of a every cycle (so it changes
// while ARVALID && !ARREADY), 5 reports error code 0x5A, 6 reports DONE without waiting
// for the write responses, 7 keeps irq low, 8 moves a's first burst 0xFC4 bytes on so
// that it crosses a 4 KiB boundary. Masters a and b only read; c only writes; the
// unused channels are tied off. Error code: bit 0 a read answered with an error, bit 1 a
// write.
//
// Operation: on START, one read command per input (4 * n bytes) and one write command
// for c; words of a and b enter the adder together, its results stream into the write
// master, and DONE is reported once every result was written and acknowledged.
module vadd_core (
    input  wire          clk,
    input  wire          rst,
    output wire          irq,
    // AXI4-Lite control port
    input  wire          s_axil_awvalid,
    output wire          s_axil_awready,
    input  wire [7:0]    s_axil_awaddr,
    input  wire          s_axil_wvalid,
    output wire          s_axil_wready,
    input  wire [31:0]   s_axil_wdata,
    input  wire [3:0]    s_axil_wstrb,
    output wire          s_axil_bvalid,
    input  wire          s_axil_bready,
    output wire [1:0]    s_axil_bresp,
    input  wire          s_axil_arvalid,
    output wire          s_axil_arready,
    input  wire [7:0]    s_axil_araddr,
    output wire          s_axil_rvalid,
    input  wire          s_axil_rready,
    output wire [31:0]   s_axil_rdata,
    output wire [1:0]    s_axil_rresp,
    // AXI4 master a: 32-bit data, 32-bit addresses
    output wire          m_a_arvalid,
    input  wire          m_a_arready,
    output wire [31:0]   m_a_araddr,
    output wire [7:0]    m_a_arlen,
    output wire [2:0]    m_a_arsize,
    output wire [1:0]    m_a_arburst,
    output wire [0:0]    m_a_arid,
    input  wire          m_a_rvalid,
    output wire          m_a_rready,
    input  wire [31:0]   m_a_rdata,
    input  wire [1:0]    m_a_rresp,
    input  wire          m_a_rlast,
    input  wire [0:0]    m_a_rid,
    output wire          m_a_awvalid,
    input  wire          m_a_awready,
    output wire [31:0]   m_a_awaddr,
    output wire [7:0]    m_a_awlen,
    output wire [2:0]    m_a_awsize,
    output wire [1:0]    m_a_awburst,
    output wire [0:0]    m_a_awid,
    output wire          m_a_wvalid,
    input  wire          m_a_wready,
    output wire [31:0]   m_a_wdata,
    output wire [3:0]    m_a_wstrb,
    output wire          m_a_wlast,
    input  wire          m_a_bvalid,
    output wire          m_a_bready,
    input  wire [1:0]    m_a_bresp,
    input  wire [0:0]    m_a_bid,
    // AXI4 master b: 32-bit data, 32-bit addresses
    output wire          m_b_arvalid,
    input  wire          m_b_arready,
    output wire [31:0]   m_b_araddr,
    output wire [7:0]    m_b_arlen,
    output wire [2:0]    m_b_arsize,
    output wire [1:0]    m_b_arburst,
    output wire [0:0]    m_b_arid,
    input  wire          m_b_rvalid,
    output wire          m_b_rready,
    input  wire [31:0]   m_b_rdata,
    input  wire [1:0]    m_b_rresp,
    input  wire          m_b_rlast,
    input  wire [0:0]    m_b_rid,
    output wire          m_b_awvalid,
    input  wire          m_b_awready,
    output wire [31:0]   m_b_awaddr,
    output wire [7:0]    m_b_awlen,
    output wire [2:0]    m_b_awsize,
    output wire [1:0]    m_b_awburst,
    output wire [0:0]    m_b_awid,
    output wire          m_b_wvalid,
    input  wire          m_b_wready,
    output wire [31:0]   m_b_wdata,
    output wire [3:0]    m_b_wstrb,
    output wire          m_b_wlast,
    input  wire          m_b_bvalid,
    output wire          m_b_bready,
    input  wire [1:0]    m_b_bresp,
    input  wire [0:0]    m_b_bid,
    // AXI4 master c: 32-bit data, 32-bit addresses
    output wire          m_c_arvalid,
    input  wire          m_c_arready,
    output wire [31:0]   m_c_araddr,
    output wire [7:0]    m_c_arlen,
    output wire [2:0]    m_c_arsize,
    output wire [1:0]    m_c_arburst,
    output wire [0:0]    m_c_arid,
    input  wire          m_c_rvalid,
    output wire          m_c_rready,
    input  wire [31:0]   m_c_rdata,
    input  wire [1:0]    m_c_rresp,
    input  wire          m_c_rlast,
    input  wire [0:0]    m_c_rid,
    output wire          m_c_awvalid,
    input  wire          m_c_awready,
    output wire [31:0]   m_c_awaddr,
    output wire [7:0]    m_c_awlen,
    output wire [2:0]    m_c_awsize,
    output wire [1:0]    m_c_awburst,
    output wire [0:0]    m_c_awid,
    output wire          m_c_wvalid,
    input  wire          m_c_wready,
    output wire [31:0]   m_c_wdata,
    output wire [3:0]    m_c_wstrb,
    output wire          m_c_wlast,
    input  wire          m_c_bvalid,
    output wire          m_c_bready,
    input  wire [1:0]    m_c_bresp,
    input  wire [0:0]    m_c_bid
);
    localparam NARGS = 4;
    localparam [1:0] S_IDLE = 2'd0, S_RUN = 2'd1, S_DRAIN = 2'd2;

    reg [3:0] fault_q;

    // ---- Control registers
    wire start;
    reg done;
    wire csr_irq;
    wire [7:0] err_code;
    wire busy;
    wire [95:0] global_size;
    wire [95:0] local_size;
    wire [NARGS*32-1:0] args;
    ohls_axil_csr #(
        .NARGS(NARGS),
        .ADDR_WIDTH(8)
    ) u_csr (
        .clk(clk),
        .rst(rst),
        .s_awvalid(s_axil_awvalid),
        .s_awready(s_axil_awready),
        .s_awaddr(s_axil_awaddr),
        .s_wvalid(s_axil_wvalid),
        .s_wready(s_axil_wready),
        .s_wdata(s_axil_wdata),
        .s_wstrb(s_axil_wstrb),
        .s_bvalid(s_axil_bvalid),
        .s_bready(s_axil_bready),
        .s_bresp(s_axil_bresp),
        .s_arvalid(s_axil_arvalid),
        .s_arready(s_axil_arready),
        .s_araddr(s_axil_araddr),
        .s_rvalid(s_axil_rvalid),
        .s_rready(s_axil_rready),
        .s_rdata(s_axil_rdata),
        .s_rresp(s_axil_rresp),
        .start(start),
        .done(done),
        .err_code(err_code),
        .busy(busy),
        .global_size(global_size),
        .local_size(local_size),
        .args(args),
        .counters(32'd0),
        .irq(csr_irq)
    );
    assign irq = csr_irq && (fault_q != 4'd7);

    // ---- Sequencing: issue the three commands, stream n results, wait for the writes.
    reg [1:0] state;
    reg a_cmd, b_cmd, c_cmd;  // command not yet accepted
    reg [31:0] left;  // results not yet handed to the write master
    reg [31:0] len_q;
    reg [31:0] a_q, b_q, c_q;
    wire a_cmd_ready, b_cmd_ready, c_cmd_ready;
    wire a_idle, b_idle, c_idle;
    wire a_err, b_err, c_err;
    wire push;

    always @(posedge clk) begin
        if (rst) begin
            state <= S_IDLE;
            a_cmd <= 1'b0;
            b_cmd <= 1'b0;
            c_cmd <= 1'b0;
            done <= 1'b0;
            fault_q <= 4'd0;
        end else begin
            done <= 1'b0;
            if (a_cmd && a_cmd_ready) a_cmd <= 1'b0;
            if (b_cmd && b_cmd_ready) b_cmd <= 1'b0;
            if (c_cmd && c_cmd_ready) c_cmd <= 1'b0;
            if (push) left <= left - 32'd1;
            case (state)
                S_IDLE:
                if (start) begin
                    state <= S_RUN;
                    a_cmd <= 1'b1;
                    b_cmd <= 1'b1;
                    c_cmd <= 1'b1;
                    left <= global_size[31:0];
                    len_q <= {global_size[29:0], 2'b00};
                    a_q <= args[31:0];
                    b_q <= args[63:32];
                    c_q <= args[95:64];
                    fault_q <= args[99:96];
                end
                S_RUN:
                if (!a_cmd && !b_cmd && !c_cmd && left == 32'd0) state <= S_DRAIN;
                default:
                if ((a_idle && b_idle && c_idle || fault_q == 4'd6) && fault_q != 4'd2) begin
                    state <= S_IDLE;
                    done <= 1'b1;
                end
            endcase
        end
    end
    assign err_code = (fault_q == 4'd5) ? 8'h5A : {6'd0, c_err, a_err | b_err};

    // ---- Reads of a and b
    wire a_valid, b_valid;
    wire a_last, b_last;
    wire [31:0] a_data, b_data;
    wire take;
    wire [31:0] a_araddr;
    reg wobble;
    always @(posedge clk) wobble <= rst ? 1'b0 : !wobble;
    assign m_a_araddr = (fault_q == 4'd4) ? (a_araddr ^ {29'd0, wobble, 2'b00})
                      : (fault_q == 4'd8) ? (a_araddr + 32'hFC4) : a_araddr;

    ohls_axi_rd #(
        .DATA_WIDTH(32),
        .ADDR_WIDTH(32),
        .LEN_WIDTH(32)
    ) u_rd_a (
        .clk(clk),
        .rst(rst),
        .cmd_valid(a_cmd),
        .cmd_ready(a_cmd_ready),
        .cmd_addr((fault_q == 4'd1) ? a_q + len_q : a_q),
        .cmd_len(len_q),
        .out_valid(a_valid),
        .out_ready(take),
        .out_data(a_data),
        .out_last(a_last),
        .m_arvalid(m_a_arvalid),
        .m_arready(m_a_arready),
        .m_araddr(a_araddr),
        .m_arlen(m_a_arlen),
        .m_arsize(m_a_arsize),
        .m_arburst(m_a_arburst),
        .m_arid(m_a_arid),
        .m_rvalid(m_a_rvalid),
        .m_rready(m_a_rready),
        .m_rdata(m_a_rdata),
        .m_rresp(m_a_rresp),
        .m_rlast(m_a_rlast),
        .m_rid(m_a_rid),
        .err(a_err),
        .idle(a_idle)
    );

    ohls_axi_rd #(
        .DATA_WIDTH(32),
        .ADDR_WIDTH(32),
        .LEN_WIDTH(32)
    ) u_rd_b (
        .clk(clk),
        .rst(rst),
        .cmd_valid(b_cmd),
        .cmd_ready(b_cmd_ready),
        .cmd_addr(b_q),
        .cmd_len(len_q),
        .out_valid(b_valid),
        .out_ready(take),
        .out_data(b_data),
        .out_last(b_last),
        .m_arvalid(m_b_arvalid),
        .m_arready(m_b_arready),
        .m_araddr(m_b_araddr),
        .m_arlen(m_b_arlen),
        .m_arsize(m_b_arsize),
        .m_arburst(m_b_arburst),
        .m_arid(m_b_arid),
        .m_rvalid(m_b_rvalid),
        .m_rready(m_b_rready),
        .m_rdata(m_b_rdata),
        .m_rresp(m_b_rresp),
        .m_rlast(m_b_rlast),
        .m_rid(m_b_rid),
        .err(b_err),
        .idle(b_idle)
    );

    // ---- The adder: frozen while its result waits for the write master.
    wire sum_valid;
    wire [31:0] sum;
    wire c_in_ready;
    wire en = !sum_valid || c_in_ready;
    assign take = en && a_valid && b_valid;
    assign push = sum_valid && c_in_ready;
    ohls_fp_add #(
        .LATENCY(6)
    ) u_add (
        .clk(clk),
        .rst(rst),
        .en(en),
        .in_valid(a_valid && b_valid),
        .a(a_data),
        .b(b_data),
        .sub(1'b0),
        .out_valid(sum_valid),
        .result(sum)
    );

    // ---- Writes of c
    wire c_wlast;
    assign m_c_wlast = c_wlast && (fault_q != 4'd3);
    ohls_axi_wr #(
        .DATA_WIDTH(32),
        .ADDR_WIDTH(32),
        .LEN_WIDTH(32)
    ) u_wr_c (
        .clk(clk),
        .rst(rst),
        .cmd_valid(c_cmd),
        .cmd_ready(c_cmd_ready),
        .cmd_addr(c_q),
        .cmd_len(len_q),
        .in_valid(sum_valid),
        .in_ready(c_in_ready),
        .in_data(sum),
        .in_strb(4'hF),
        .m_awvalid(m_c_awvalid),
        .m_awready(m_c_awready),
        .m_awaddr(m_c_awaddr),
        .m_awlen(m_c_awlen),
        .m_awsize(m_c_awsize),
        .m_awburst(m_c_awburst),
        .m_awid(m_c_awid),
        .m_wvalid(m_c_wvalid),
        .m_wready(m_c_wready),
        .m_wdata(m_c_wdata),
        .m_wstrb(m_c_wstrb),
        .m_wlast(c_wlast),
        .m_bvalid(m_c_bvalid),
        .m_bready(m_c_bready),
        .m_bresp(m_c_bresp),
        .m_bid(m_c_bid),
        .err(c_err),
        .idle(c_idle)
    );

    // ---- Channels a master of this kernel never uses, tied off.
    assign m_a_awvalid = 1'b0;
    assign m_a_awaddr = 32'd0;
    assign m_a_awlen = 8'd0;
    assign m_a_awsize = 3'd0;
    assign m_a_awburst = 2'b01;
    assign m_a_awid = 1'b0;
    assign m_a_wvalid = 1'b0;
    assign m_a_wdata = 32'd0;
    assign m_a_wstrb = 4'd0;
    assign m_a_wlast = 1'b0;
    assign m_a_bready = 1'b1;
    assign m_b_awvalid = 1'b0;
    assign m_b_awaddr = 32'd0;
    assign m_b_awlen = 8'd0;
    assign m_b_awsize = 3'd0;
    assign m_b_awburst = 2'b01;
    assign m_b_awid = 1'b0;
    assign m_b_wvalid = 1'b0;
    assign m_b_wdata = 32'd0;
    assign m_b_wstrb = 4'd0;
    assign m_b_wlast = 1'b0;
    assign m_b_bready = 1'b1;
    assign m_c_arvalid = 1'b0;
    assign m_c_araddr = 32'd0;
    assign m_c_arlen = 8'd0;
    assign m_c_arsize = 3'd0;
    assign m_c_arburst = 2'b01;
    assign m_c_arid = 1'b0;
    assign m_c_rready = 1'b1;

    wire unused = &{1'b0, busy, local_size, global_size[95:32], args[127:100], a_last, b_last,
                    m_a_awready, m_a_wready, m_a_bvalid, m_a_bresp, m_a_bid,
                    m_b_awready, m_b_wready, m_b_bvalid, m_b_bresp, m_b_bid,
                    m_c_arready, m_c_rvalid, m_c_rdata, m_c_rresp, m_c_rlast, m_c_rid};
endmodule
