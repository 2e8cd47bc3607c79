// ohls_fp_stage: one optional pipeline register of the floating-point units.
//
// The float units are written as a chain of combinational steps with an ohls_fp_stage
// between consecutive steps; REG chooses per cut whether a register is there, so one
// LATENCY parameter can move the registers without rewriting the datapath.
//
// Latency: 1 cycle when REG != 0, 0 (a wire) when REG == 0. Throughput: one word per cycle.
// Handshake: no ready; `en` low freezes the register (the whole unit stalls together),
// `in_valid` travels with the data to `out_valid`. The data register has no reset (it is
// qualified by the valid bit), which saves the reset logic on wide buses.
//
// Parameters:
//   W   - data width in bits (>= 1)
//   REG - 1: registered cut, 0: pass-through
// Ports:
//   clk       - clock (rising edge)
//   rst       - synchronous active-high reset (clears the valid bit only)
//   en        - clock enable of the register
//   in_valid  - valid bit entering the cut
//   in_data   - data entering the cut
//   out_valid - valid bit leaving the cut
//   out_data  - data leaving the cut
module ohls_fp_stage #(
    parameter W   = 1,
    parameter REG = 1
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         en,
    input  wire         in_valid,
    input  wire [W-1:0] in_data,
    output wire         out_valid,
    output wire [W-1:0] out_data
);
  generate
    if (REG != 0) begin : g_reg
      reg         v_q;
      reg [W-1:0] d_q;
      always @(posedge clk) begin
        if (rst) v_q <= 1'b0;
        else if (en) v_q <= in_valid;
        if (en) d_q <= in_data;
      end
      assign out_valid = v_q;
      assign out_data  = d_q;
    end else begin : g_wire
      // A wire stage has no use for the clock: the `unused` name tells Verilator so.
      wire unused_ok = &{1'b0, clk, rst, en};
      assign out_valid = in_valid;
      assign out_data  = in_data;
    end
  endgenerate
endmodule
