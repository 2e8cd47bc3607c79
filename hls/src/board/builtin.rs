//! The board files of the repository's `boards/` folder, compiled into the binary so
//! `ocl-hls` works from any directory.

/// (file name, text) of every built-in board.
pub const FILES: [(&str, &str); 6] = [
    (
        "de10-nano.yaml",
        include_str!("../../../boards/de10-nano.yaml"),
    ),
    (
        "de10-standard.yaml",
        include_str!("../../../boards/de10-standard.yaml"),
    ),
    ("de1-soc.yaml", include_str!("../../../boards/de1-soc.yaml")),
    ("ulx3s.yaml", include_str!("../../../boards/ulx3s.yaml")),
    (
        "icebreaker.yaml",
        include_str!("../../../boards/icebreaker.yaml"),
    ),
    ("sim.yaml", include_str!("../../../boards/sim.yaml")),
];
