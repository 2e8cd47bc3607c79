// raw_core: a kernel core written by hand to test the memory model's ordering of a read
// after a write on one master: x[1] = (x[0] = 0xC0FFEE01, then read x[0] back).
//
// Interface: the kernel core contract of sim/README.md. Control registers of
// ohls_axil_csr (ADDR_WIDTH 8): x at 0x40 (32-bit address), wait at 0x44.
//
// Operation: on START, write 0xC0FFEE01 to x[0]; then (after the write's B response
// when wait is nonzero, else at once) read x[0] and write the word read to x[1]. DONE
// once both writes are acknowledged. AXI does not order the read after the write unless
// the core waits for B, so with wait = 0 the model may return either word.
module raw_core (
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
    // AXI4 master x: 32-bit data and addresses
    output wire          m_x_arvalid,
    input  wire          m_x_arready,
    output wire [31:0]   m_x_araddr,
    output wire [7:0]    m_x_arlen,
    output wire [2:0]    m_x_arsize,
    output wire [1:0]    m_x_arburst,
    output wire [0:0]    m_x_arid,
    input  wire          m_x_rvalid,
    output wire          m_x_rready,
    input  wire [31:0]   m_x_rdata,
    input  wire [1:0]    m_x_rresp,
    input  wire          m_x_rlast,
    input  wire [0:0]    m_x_rid,
    output wire          m_x_awvalid,
    input  wire          m_x_awready,
    output wire [31:0]   m_x_awaddr,
    output wire [7:0]    m_x_awlen,
    output wire [2:0]    m_x_awsize,
    output wire [1:0]    m_x_awburst,
    output wire [0:0]    m_x_awid,
    output wire          m_x_wvalid,
    input  wire          m_x_wready,
    output wire [31:0]   m_x_wdata,
    output wire [3:0]    m_x_wstrb,
    output wire          m_x_wlast,
    input  wire          m_x_bvalid,
    output wire          m_x_bready,
    input  wire [1:0]    m_x_bresp,
    input  wire [0:0]    m_x_bid
);
    localparam NARGS = 2;
    localparam [2:0] S_IDLE = 3'd0, S_WR = 3'd1, S_WAITB = 3'd2, S_RD = 3'd3, S_WR2 = 3'd4,
        S_DRAIN = 3'd5;

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

    // ---- Sequencing: each state issues its command, then hands over or takes one word.
    reg [2:0] state;
    reg cmd;  // the state's command not yet accepted
    reg [31:0] got;
    wire rd_cmd_ready, wr_cmd_ready, rd_valid, wr_ready, rd_last;
    wire [31:0] rd_data;
    wire rd_idle, wr_idle, rd_err, wr_err;
    wire writing = state == S_WR || state == S_WR2;
    wire wr_cmd_valid = writing && cmd;
    wire wr_valid = writing && !cmd;
    wire rd_cmd_valid = state == S_RD && cmd;
    wire rd_ready = state == S_RD && !cmd;
    wire [31:0] wr_addr = args[31:0] + (state == S_WR2 ? 32'd4 : 32'd0);
    wire [31:0] wr_data = state == S_WR2 ? got : 32'hC0FFEE01;

    always @(posedge clk) begin
        if (rst) begin
            state <= S_IDLE;
            cmd <= 1'b0;
            done <= 1'b0;
        end else begin
            done <= 1'b0;
            if ((wr_cmd_valid && wr_cmd_ready) || (rd_cmd_valid && rd_cmd_ready)) cmd <= 1'b0;
            case (state)
                S_IDLE:
                if (start) begin
                    state <= S_WR;
                    cmd <= 1'b1;
                end
                S_WR:
                if (wr_valid && wr_ready) begin
                    state <= args[63:32] != 32'd0 ? S_WAITB : S_RD;
                    cmd <= args[63:32] == 32'd0;
                end
                S_WAITB:
                if (wr_idle) begin
                    state <= S_RD;
                    cmd <= 1'b1;
                end
                S_RD:
                if (rd_ready && rd_valid) begin
                    got <= rd_data;
                    state <= S_WR2;
                    cmd <= 1'b1;
                end
                S_WR2:
                if (wr_valid && wr_ready) state <= S_DRAIN;
                default:
                if (rd_idle && wr_idle) begin
                    state <= S_IDLE;
                    done <= 1'b1;
                end
            endcase
        end
    end
    assign err_code = {6'd0, wr_err, rd_err};

    ohls_axi_rd #(
        .DATA_WIDTH(32),
        .ADDR_WIDTH(32),
        .LEN_WIDTH(32)
    ) u_rd (
        .clk(clk),
        .rst(rst),
        .cmd_valid(rd_cmd_valid),
        .cmd_ready(rd_cmd_ready),
        .cmd_addr(args[31:0]),
        .cmd_len(32'd4),
        .out_valid(rd_valid),
        .out_ready(rd_ready),
        .out_data(rd_data),
        .out_last(rd_last),
        .m_arvalid(m_x_arvalid),
        .m_arready(m_x_arready),
        .m_araddr(m_x_araddr),
        .m_arlen(m_x_arlen),
        .m_arsize(m_x_arsize),
        .m_arburst(m_x_arburst),
        .m_arid(m_x_arid),
        .m_rvalid(m_x_rvalid),
        .m_rready(m_x_rready),
        .m_rdata(m_x_rdata),
        .m_rresp(m_x_rresp),
        .m_rlast(m_x_rlast),
        .m_rid(m_x_rid),
        .err(rd_err),
        .idle(rd_idle)
    );

    ohls_axi_wr #(
        .DATA_WIDTH(32),
        .ADDR_WIDTH(32),
        .LEN_WIDTH(32)
    ) u_wr (
        .clk(clk),
        .rst(rst),
        .cmd_valid(wr_cmd_valid),
        .cmd_ready(wr_cmd_ready),
        .cmd_addr(wr_addr),
        .cmd_len(32'd4),
        .in_valid(wr_valid),
        .in_ready(wr_ready),
        .in_data(wr_data),
        .in_strb(4'hF),
        .m_awvalid(m_x_awvalid),
        .m_awready(m_x_awready),
        .m_awaddr(m_x_awaddr),
        .m_awlen(m_x_awlen),
        .m_awsize(m_x_awsize),
        .m_awburst(m_x_awburst),
        .m_awid(m_x_awid),
        .m_wvalid(m_x_wvalid),
        .m_wready(m_x_wready),
        .m_wdata(m_x_wdata),
        .m_wstrb(m_x_wstrb),
        .m_wlast(m_x_wlast),
        .m_bvalid(m_x_bvalid),
        .m_bready(m_x_bready),
        .m_bresp(m_x_bresp),
        .m_bid(m_x_bid),
        .err(wr_err),
        .idle(wr_idle)
    );

    wire unused = &{1'b0, busy, global_size, local_size, rd_last};
endmodule
