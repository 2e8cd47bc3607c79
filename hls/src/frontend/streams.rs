//! Kernel-to-kernel streams that ocl-hls does not compile yet (Intel channels, OpenCL 2.0
//! pipes, AMD's blocking stream pipes): found on the preprocessed tokens, before the parser
//! would drown them in syntax errors, and reported once per program at the first use.

use crate::diag::Diagnostic;
use crate::frontend::token::{Punct, Token, TokenKind};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stream {
    IntelChannels,
    Pipes,
    AmdPipes,
}

impl Stream {
    fn name(self) -> &'static str {
        match self {
            Stream::IntelChannels => {
                "Intel FPGA channels (cl_intel_channels: `channel`, read_channel_intel, \
                 write_channel_intel)"
            }
            Stream::Pipes => "OpenCL 2.0 pipes (`pipe`, read_pipe, write_pipe)",
            Stream::AmdPipes => {
                "AMD/Xilinx stream pipes (program-scope `pipe` with xcl_reqd_pipe_depth, \
                 read_pipe_block, write_pipe_block)"
            }
        }
    }
}

const INTEL_CALLS: &[&str] = &[
    "read_channel_intel",
    "write_channel_intel",
    "read_channel_nb_intel",
    "write_channel_nb_intel",
    "read_channel_altera",
    "write_channel_altera",
    "read_channel_nb_altera",
    "write_channel_nb_altera",
];

const PIPE_CALLS: &[&str] = &[
    "read_pipe",
    "write_pipe",
    "reserve_read_pipe",
    "reserve_write_pipe",
    "commit_read_pipe",
    "commit_write_pipe",
    "work_group_reserve_read_pipe",
    "work_group_reserve_write_pipe",
    "work_group_commit_read_pipe",
    "work_group_commit_write_pipe",
    "get_pipe_num_packets",
    "get_pipe_max_packets",
];

const AMD_MARKS: &[&str] = &["xcl_reqd_pipe_depth", "read_pipe_block", "write_pipe_block"];

/// What token `i` starts, if it is a stream construct.
fn construct(toks: &[Token], i: usize) -> Option<Stream> {
    let t = &toks[i];
    let prev_member =
        i > 0 && (toks[i - 1].is_punct(Punct::Dot) || toks[i - 1].is_punct(Punct::Arrow));
    let next_is = |f: &dyn Fn(&Token) -> bool| toks.get(i + 1).is_some_and(f);
    match &t.kind {
        TokenKind::Pragma(words) => {
            let w: Vec<String> = words.iter().map(|t| t.text()).collect();
            match w.as_slice() {
                [o, e, ext, ..]
                    if o == "OPENCL"
                        && e == "EXTENSION"
                        && (ext == "cl_intel_channels" || ext == "cl_altera_channels") =>
                {
                    Some(Stream::IntelChannels)
                }
                _ => None,
            }
        }
        TokenKind::Ident(_) if prev_member => None,
        TokenKind::Ident(s) if INTEL_CALLS.contains(&s.as_str()) => Some(Stream::IntelChannels),
        TokenKind::Ident(s) if AMD_MARKS.contains(&s.as_str()) => Some(Stream::AmdPipes),
        TokenKind::Ident(s)
            if PIPE_CALLS.contains(&s.as_str()) && next_is(&|n| n.is_punct(Punct::LParen)) =>
        {
            Some(Stream::Pipes)
        }
        // A declaration `channel int c;` / `pipe float p`; a variable named so is not.
        TokenKind::Ident(s) if s == "channel" && next_is(&|n| n.ident().is_some()) => {
            Some(Stream::IntelChannels)
        }
        TokenKind::Ident(s) if s == "pipe" && next_is(&|n| n.ident().is_some()) => {
            Some(Stream::Pipes)
        }
        _ => None,
    }
}

/// One error at the program's first stream construct, naming the extension; `None` when
/// the program has none.
pub fn unsupported(toks: &[Token]) -> Option<Diagnostic> {
    let (at, kind) = (0..toks.len()).find_map(|i| construct(toks, i).map(|k| (i, k)))?;
    // A `pipe` of a program that also uses AMD's blocking calls is one of AMD's pipes.
    let amd = (0..toks.len()).any(|i| construct(toks, i) == Some(Stream::AmdPipes));
    let kind = if kind == Stream::Pipes && amd {
        Stream::AmdPipes
    } else {
        kind
    };
    Some(Diagnostic::error(
        toks[at].span,
        format!(
            "{} are not supported yet: kernels connected by channels or pipes cannot be \
             compiled by ocl-hls (this is the program's first use; pass data through \
             global memory between kernel launches instead)",
            kind.name()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use crate::frontend::{check_source, Options};

    fn first(src: &str) -> Vec<String> {
        let c = check_source("s.cl", src, &Options::default());
        c.diags
            .list
            .iter()
            .map(|d| crate::diag::render(&c.sources, d))
            .collect()
    }

    #[test]
    fn one_error_per_program_naming_the_extension_and_line() {
        let intel = "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
            channel int c0 __attribute__((depth(8)));\n\
            __kernel void p(__global int *a) { write_channel_intel(c0, a[0]); }\n\
            __kernel void q(__global int *b) { b[0] = read_channel_intel(c0); }\n";
        let d = first(intel);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].starts_with("s.cl:1:") && d[0].contains("Intel FPGA channels"),
            "{}",
            d[0]
        );

        let ch = "channel float4 c;\n__kernel void p(__global float4 *a) { write_channel_intel(c, a[0]); }\n";
        let d = first(ch);
        assert!(
            d.len() == 1 && d[0].starts_with("s.cl:1:1:") && d[0].contains("cl_intel_channels"),
            "{d:?}"
        );

        let pipes = "__kernel void p(__global int *a,\n __write_only pipe int out) {\n write_pipe(out, a);\n}\n";
        let d = first(pipes);
        assert!(
            d.len() == 1 && d[0].starts_with("s.cl:2:") && d[0].contains("OpenCL 2.0 pipes"),
            "{d:?}"
        );

        let amd = "pipe int p0 __attribute__((xcl_reqd_pipe_depth(32)));\n\
            __kernel void a(__global int *x) { write_pipe_block(p0, x); }\n";
        let d = first(amd);
        assert!(
            d.len() == 1
                && d[0].starts_with("s.cl:1:1:")
                && d[0].contains("AMD/Xilinx stream pipes"),
            "{d:?}"
        );

        let names = "__kernel void k(__global int *o) { int channel = 3; int pipe = channel; o[0] = pipe; }\n";
        assert!(
            first(names).is_empty(),
            "variables named channel and pipe are fine"
        );
    }
}
