//! The stages by name and the wall-clock time each took, for the build bench and the
//! `build` summary.

use std::time::{Duration, Instant};

/// One stage of the pipeline, in pipeline order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Lower,
    Relax,
    Mathlib,
    Workitems,
    Loops,
    Opt,
    Memory,
    Schedule,
    Modulo,
    Pipeline,
    Bind,
    Datapath,
    Shell,
    Analysis,
}

impl Stage {
    /// Every stage after lowering, in the order `compile` runs them.
    pub const KERNEL: [Stage; 13] = [
        Stage::Relax,
        Stage::Mathlib,
        Stage::Workitems,
        Stage::Loops,
        Stage::Opt,
        Stage::Memory,
        Stage::Schedule,
        Stage::Modulo,
        Stage::Pipeline,
        Stage::Bind,
        Stage::Datapath,
        Stage::Shell,
        Stage::Analysis,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Stage::Lower => "lower",
            Stage::Relax => "relax",
            Stage::Mathlib => "mathlib",
            Stage::Workitems => "workitems",
            Stage::Loops => "loops",
            Stage::Opt => "opt",
            Stage::Memory => "memory",
            Stage::Schedule => "schedule",
            Stage::Modulo => "modulo",
            Stage::Pipeline => "pipeline",
            Stage::Bind => "bind",
            Stage::Datapath => "datapath",
            Stage::Shell => "shell",
            Stage::Analysis => "analysis",
        }
    }
}

/// Per stage, how often it ran and for how long (each runs once per kernel; the count
/// makes that checkable).
#[derive(Clone, Debug, Default)]
pub struct StageTimes {
    pub runs: Vec<(Stage, Duration)>,
}

impl StageTimes {
    /// Runs `f` as stage `s`, recording its time.
    pub fn run<T>(&mut self, s: Stage, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let out = f();
        self.runs.push((s, t.elapsed()));
        out
    }

    /// The time of stage `s` (all its runs).
    pub fn of(&self, s: Stage) -> Duration {
        self.runs.iter().filter(|r| r.0 == s).map(|r| r.1).sum()
    }

    /// How many times stage `s` ran.
    pub fn count(&self, s: Stage) -> usize {
        self.runs.iter().filter(|r| r.0 == s).count()
    }

    pub fn total(&self) -> Duration {
        self.runs.iter().map(|r| r.1).sum()
    }
}
