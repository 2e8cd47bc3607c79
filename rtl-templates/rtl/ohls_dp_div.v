// ohls_dp_div: IEEE-754 binary64 divider, round to nearest even, iterative (one quotient
// bit per cycle; small, not pipelined).
//
// result = a / b, correctly rounded, subnormal inputs and outputs exact (no flush to
// zero). x/0 = +-inf for finite x != 0, inf/x = +-inf, x/inf = +-0. NaN results follow
// x86 SSE (divsd): the first NaN operand (a before b) with its quiet bit set, else the
// default NaN 0xFFF8000000000000 for 0/0 and inf/inf.
//
// Datapath: subnormal operands are normalised while loading, then a restoring division
// runs 55 compare-subtract steps on 53-bit mantissas (quotient with its integer bit,
// guard bit, and the remainder as sticky), one per cycle; a one-bit normalisation, a
// sticky right shift for subnormal results, round and pack fill the output register.
// Latency: 57 cycles (load, 55 steps, output register).
// Throughput: one division per 57 cycles: `in_valid` is taken only while the unit is idle
// (no division under way); an operation presented while busy is ignored, so the caller
// waits for `out_valid` before issuing the next.
// Handshake: `en` low freezes the unit; `out_valid` pulses for one enabled cycle.
//
// Ports:
//   clk, rst  - clock and synchronous active-high reset (abandons a division under way)
//   en        - enable
//   in_valid  - an operation is presented on a, b
//   a, b      - dividend and divisor (binary64 bit patterns)
//   out_valid - result holds a finished operation
//   result    - the quotient (binary64)
module ohls_dp_div (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [63:0] a,
    input  wire [63:0] b,
    output wire        out_valid,
    output wire [63:0] result
);
  localparam [5:0] LAST = 6'd54;

  // ---- classify and normalise the operands
  wire a_e0 = a[62:52] == 11'd0, b_e0 = b[62:52] == 11'd0;
  wire a_max = &a[62:52], b_max = &b[62:52];
  wire a_zero = a_e0 & ~(|a[51:0]), b_zero = b_e0 & ~(|b[51:0]);
  wire a_inf = a_max & ~(|a[51:0]), b_inf = b_max & ~(|b[51:0]);
  wire a_nan = a_max & (|a[51:0]), b_nan = b_max & (|b[51:0]);
  wire sign_in = a[63] ^ b[63];
  wire [63:0] special_in = a_nan ? {a[63], 12'hFFF, a[50:0]} :
      b_nan ? {b[63], 12'hFFF, b[50:0]} :
      ((a_zero & b_zero) | (a_inf & b_inf)) ? 64'hFFF8000000000000 :
      (a_inf | b_zero) ? {sign_in, 11'h7FF, 52'd0} : {sign_in, 63'd0};
  wire is_special_in = a_max | b_max | a_zero | b_zero;
  wire [5:0] lza, lzb;
  ohls_fp_lzc #(
      .W (53),
      .CW(6)
  ) u_lza (
      .x    ({~a_e0, a[51:0]}),
      .count(lza)
  );
  ohls_fp_lzc #(
      .W (53),
      .CW(6)
  ) u_lzb (
      .x    ({~b_e0, b[51:0]}),
      .count(lzb)
  );
  wire [52:0] ma = {~a_e0, a[51:0]} << lza;
  wire [52:0] mb = {~b_e0, b[51:0]} << lzb;
  wire [12:0] ea = {2'b00, a_e0 ? 11'd1 : a[62:52]} - {7'd0, lza};
  wire [12:0] eb = {2'b00, b_e0 ? 11'd1 : b[62:52]} - {7'd0, lzb};

  // ---- state of the division under way
  reg busy, done;
  reg [5:0] step;
  reg [53:0] rem;
  reg [54:0] quo;
  reg [52:0] div;
  // Biased exponent of quotient bit 54 (the integer bit of ma / mb).
  reg [12:0] exq;
  reg sign_q, special_q;
  reg [63:0] special_word;

  // Step 0 compares the dividend itself (the integer bit); later steps double first.
  wire [53:0] r2 = (step == 6'd0) ? rem : {rem[52:0], 1'b0};
  wire [54:0] diff = {1'b0, r2} - {2'b00, div};
  wire ge = ~diff[54];

  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      done <= 1'b0;
    end else if (en) begin
      done <= 1'b0;
      if (!busy && in_valid) begin
        busy <= 1'b1;
        step <= 6'd0;
        rem <= {1'b0, ma};
        quo <= 55'd0;
        div <= mb;
        exq <= ea - eb + 13'd1023;
        sign_q <= sign_in;
        special_q <= is_special_in;
        special_word <= special_in;
      end else if (busy) begin
        // A kept remainder stays below the divisor (< 2^53), so bit 53 of it is 0.
        rem <= ge ? diff[53:0] : r2;
        quo <= {quo[53:0], ge};
        step <= step + 6'd1;
        if (step == LAST) begin
          busy <= 1'b0;
          done <= 1'b1;
        end
      end
    end
  end

  // ---- normalise the quotient to [1, 2) and shift subnormal results right
  wire [55:0] qs = quo[54] ? {quo, |rem} : {quo[53:0], |rem, 1'b0};
  wire [12:0] en_q = quo[54] ? exq : exq - 13'd1;
  wire [12:0] ed;
  wire [55:0] md;
  ohls_fp_denorm #(
      .W (56),
      .XW(13)
  ) u_den (
      .exp   (en_q),
      .mant  (qs),
      .exp_o (ed),
      .mant_o(md)
  );
  wire [63:0] rounded;
  ohls_fp_round #(
      .EW(11),
      .MW(52),
      .XW(13)
  ) u_round (
      .sign  (sign_q),
      .exp   (ed),
      .mant  (md[55:3]),
      .guard (md[2]),
      .sticky(|md[1:0]),
      .rm    (2'd0),
      .result(rounded)
  );

  ohls_fp_stage #(
      .W  (64),
      .REG(1)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(done),
      .in_data(special_q ? special_word : rounded),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule
