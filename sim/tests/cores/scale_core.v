// scale_core: a kernel core written by hand from the RTL templates, to test the harness
// on wide data and 64-bit addresses: dst[i] = src[i] * k on 32-bit integers (wrapping)
// for i < GLOBAL_SIZE0, over 256-bit masters (eight elements per beat).
//
// Interface: the kernel core contract of sim/README.md. Control registers of
// ohls_axil_csr (ADDR_WIDTH 8): src at 0x40/0x44 and dst at 0x48/0x4C (64-bit addresses,
// low word first), k at 0x50. Master src only reads and dst only writes; the unused
// channels are tied off. Error code: bit 0 a read answered with an error, bit 1 a write.
//
// Operation: on START, one read command for src and one write command for dst of 4 * n
// bytes each; each 256-bit word read is multiplied lane by lane and written as it comes
// (the write master never writes past dst's last element, whatever the strobes say), and
// DONE is reported once every word was written and acknowledged.
module scale_core (
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
    // AXI4 master src: 256-bit data, 64-bit addresses
    output wire          m_src_arvalid,
    input  wire          m_src_arready,
    output wire [63:0]   m_src_araddr,
    output wire [7:0]    m_src_arlen,
    output wire [2:0]    m_src_arsize,
    output wire [1:0]    m_src_arburst,
    output wire [0:0]    m_src_arid,
    input  wire          m_src_rvalid,
    output wire          m_src_rready,
    input  wire [255:0]  m_src_rdata,
    input  wire [1:0]    m_src_rresp,
    input  wire          m_src_rlast,
    input  wire [0:0]    m_src_rid,
    output wire          m_src_awvalid,
    input  wire          m_src_awready,
    output wire [63:0]   m_src_awaddr,
    output wire [7:0]    m_src_awlen,
    output wire [2:0]    m_src_awsize,
    output wire [1:0]    m_src_awburst,
    output wire [0:0]    m_src_awid,
    output wire          m_src_wvalid,
    input  wire          m_src_wready,
    output wire [255:0]  m_src_wdata,
    output wire [31:0]   m_src_wstrb,
    output wire          m_src_wlast,
    input  wire          m_src_bvalid,
    output wire          m_src_bready,
    input  wire [1:0]    m_src_bresp,
    input  wire [0:0]    m_src_bid,
    // AXI4 master dst: 256-bit data, 64-bit addresses
    output wire          m_dst_arvalid,
    input  wire          m_dst_arready,
    output wire [63:0]   m_dst_araddr,
    output wire [7:0]    m_dst_arlen,
    output wire [2:0]    m_dst_arsize,
    output wire [1:0]    m_dst_arburst,
    output wire [0:0]    m_dst_arid,
    input  wire          m_dst_rvalid,
    output wire          m_dst_rready,
    input  wire [255:0]  m_dst_rdata,
    input  wire [1:0]    m_dst_rresp,
    input  wire          m_dst_rlast,
    input  wire [0:0]    m_dst_rid,
    output wire          m_dst_awvalid,
    input  wire          m_dst_awready,
    output wire [63:0]   m_dst_awaddr,
    output wire [7:0]    m_dst_awlen,
    output wire [2:0]    m_dst_awsize,
    output wire [1:0]    m_dst_awburst,
    output wire [0:0]    m_dst_awid,
    output wire          m_dst_wvalid,
    input  wire          m_dst_wready,
    output wire [255:0]  m_dst_wdata,
    output wire [31:0]   m_dst_wstrb,
    output wire          m_dst_wlast,
    input  wire          m_dst_bvalid,
    output wire          m_dst_bready,
    input  wire [1:0]    m_dst_bresp,
    input  wire [0:0]    m_dst_bid
);
    localparam NARGS = 5;
    localparam [1:0] S_IDLE = 2'd0, S_RUN = 2'd1, S_DRAIN = 2'd2;

    // ---- Control registers
    wire start;
    reg done;
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
        .irq(irq)
    );

    // ---- Sequencing: issue both commands, stream ceil(n / 8) words, wait for the writes.
    reg [1:0] state;
    reg src_cmd, dst_cmd;  // command not yet accepted
    reg [31:0] left;  // words not yet handed to the write master
    reg [31:0] len_q;
    reg [63:0] src_q, dst_q;
    reg [31:0] k_q;
    wire src_cmd_ready, dst_cmd_ready;
    wire src_idle, dst_idle;
    wire src_err, dst_err;
    wire push;

    always @(posedge clk) begin
        if (rst) begin
            state <= S_IDLE;
            src_cmd <= 1'b0;
            dst_cmd <= 1'b0;
            done <= 1'b0;
        end else begin
            done <= 1'b0;
            if (src_cmd && src_cmd_ready) src_cmd <= 1'b0;
            if (dst_cmd && dst_cmd_ready) dst_cmd <= 1'b0;
            if (push) left <= left - 32'd1;
            case (state)
                S_IDLE:
                if (start) begin
                    state <= S_RUN;
                    src_cmd <= 1'b1;
                    dst_cmd <= 1'b1;
                    left <= {3'd0, global_size[31:3]} + {31'd0, |global_size[2:0]};
                    len_q <= {global_size[29:0], 2'b00};
                    src_q <= args[63:0];
                    dst_q <= args[127:64];
                    k_q <= args[159:128];
                end
                S_RUN:
                if (!src_cmd && !dst_cmd && left == 32'd0) state <= S_DRAIN;
                default:
                if (src_idle && dst_idle) begin
                    state <= S_IDLE;
                    done <= 1'b1;
                end
            endcase
        end
    end
    assign err_code = {6'd0, dst_err, src_err};

    // ---- Read, scale, write
    wire in_valid, in_last, out_ready;
    wire [255:0] in_data;
    reg [255:0] scaled;
    integer lane;
    always @(*) begin
        for (lane = 0; lane < 8; lane = lane + 1) scaled[lane*32+:32] = in_data[lane*32+:32] * k_q;
    end
    assign push = in_valid && out_ready;

    ohls_axi_rd #(
        .DATA_WIDTH(256),
        .ADDR_WIDTH(64),
        .LEN_WIDTH(32)
    ) u_rd (
        .clk(clk),
        .rst(rst),
        .cmd_valid(src_cmd),
        .cmd_ready(src_cmd_ready),
        .cmd_addr(src_q),
        .cmd_len(len_q),
        .out_valid(in_valid),
        .out_ready(out_ready),
        .out_data(in_data),
        .out_last(in_last),
        .m_arvalid(m_src_arvalid),
        .m_arready(m_src_arready),
        .m_araddr(m_src_araddr),
        .m_arlen(m_src_arlen),
        .m_arsize(m_src_arsize),
        .m_arburst(m_src_arburst),
        .m_arid(m_src_arid),
        .m_rvalid(m_src_rvalid),
        .m_rready(m_src_rready),
        .m_rdata(m_src_rdata),
        .m_rresp(m_src_rresp),
        .m_rlast(m_src_rlast),
        .m_rid(m_src_rid),
        .err(src_err),
        .idle(src_idle)
    );

    ohls_axi_wr #(
        .DATA_WIDTH(256),
        .ADDR_WIDTH(64),
        .LEN_WIDTH(32)
    ) u_wr (
        .clk(clk),
        .rst(rst),
        .cmd_valid(dst_cmd),
        .cmd_ready(dst_cmd_ready),
        .cmd_addr(dst_q),
        .cmd_len(len_q),
        .in_valid(in_valid),
        .in_ready(out_ready),
        .in_data(scaled),
        .in_strb({32{1'b1}}),
        .m_awvalid(m_dst_awvalid),
        .m_awready(m_dst_awready),
        .m_awaddr(m_dst_awaddr),
        .m_awlen(m_dst_awlen),
        .m_awsize(m_dst_awsize),
        .m_awburst(m_dst_awburst),
        .m_awid(m_dst_awid),
        .m_wvalid(m_dst_wvalid),
        .m_wready(m_dst_wready),
        .m_wdata(m_dst_wdata),
        .m_wstrb(m_dst_wstrb),
        .m_wlast(m_dst_wlast),
        .m_bvalid(m_dst_bvalid),
        .m_bready(m_dst_bready),
        .m_bresp(m_dst_bresp),
        .m_bid(m_dst_bid),
        .err(dst_err),
        .idle(dst_idle)
    );

    // ---- Channels a master of this kernel never uses, tied off.
    assign m_src_awvalid = 1'b0;
    assign m_src_awaddr = 64'd0;
    assign m_src_awlen = 8'd0;
    assign m_src_awsize = 3'd0;
    assign m_src_awburst = 2'b01;
    assign m_src_awid = 1'b0;
    assign m_src_wvalid = 1'b0;
    assign m_src_wdata = 256'd0;
    assign m_src_wstrb = 32'd0;
    assign m_src_wlast = 1'b0;
    assign m_src_bready = 1'b1;
    assign m_dst_arvalid = 1'b0;
    assign m_dst_araddr = 64'd0;
    assign m_dst_arlen = 8'd0;
    assign m_dst_arsize = 3'd0;
    assign m_dst_arburst = 2'b01;
    assign m_dst_arid = 1'b0;
    assign m_dst_rready = 1'b1;

    wire unused = &{1'b0, busy, local_size, global_size[95:32], in_last,
                    m_src_awready, m_src_wready, m_src_bvalid, m_src_bresp, m_src_bid,
                    m_dst_arready, m_dst_rvalid, m_dst_rdata, m_dst_rresp, m_dst_rlast, m_dst_rid};
endmodule
