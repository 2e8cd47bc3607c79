//! Readers of the Quartus reports a build needs: the fitter summary (`NAME.fit.summary`,
//! `Key : Value` lines) for utilization and the timing analyser's report (`NAME.sta.rpt`,
//! `; ... Model Fmax Summary` tables) for fmax per clock.

use serde::Serialize;

/// `used / available` of one resource as the fitter reports it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Usage {
    pub used: u64,
    pub available: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FitSummary {
    pub status: Option<String>,
    pub alms: Option<Usage>,
    pub registers: Option<Usage>,
    pub block_memory_bits: Option<Usage>,
    pub ram_blocks: Option<Usage>,
    pub dsp_blocks: Option<Usage>,
    pub pins: Option<Usage>,
    pub plls: Option<Usage>,
}

/// `1,234 / 41,910 ( 3 % )` or `2345`.
fn usage(v: &str) -> Option<Usage> {
    let num = |s: &str| -> Option<u64> { s.trim().replace(',', "").parse().ok() };
    let v = v.split('(').next().unwrap_or(v);
    match v.split_once('/') {
        Some((u, a)) => Some(Usage {
            used: num(u)?,
            available: Some(num(a)?),
        }),
        None => Some(Usage {
            used: num(v)?,
            available: None,
        }),
    }
}

pub fn parse_fit_summary(text: &str) -> Result<FitSummary, String> {
    let mut f = FitSummary::default();
    for line in text.lines() {
        let Some((k, v)) = line.split_once(" : ") else {
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        match k {
            "Fitter Status" => f.status = Some(v.to_string()),
            "Logic utilization (in ALMs)" => f.alms = usage(v),
            "Total registers" => f.registers = usage(v),
            "Total block memory bits" => f.block_memory_bits = usage(v),
            "Total RAM Blocks" => f.ram_blocks = usage(v),
            "Total DSP Blocks" => f.dsp_blocks = usage(v),
            "Total pins" => f.pins = usage(v),
            "Total PLLs" => f.plls = usage(v),
            _ => {}
        }
    }
    if f.status.is_none() || f.alms.is_none() {
        return Err("the fitter summary has no `Fitter Status` or ALM utilization".into());
    }
    Ok(f)
}

/// One clock's worst fmax over the timing models.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClockFmax {
    pub clock: String,
    pub fmax_mhz: f64,
    /// Fmax after the device's minimum-pulse-width and clock-tree limits.
    pub restricted_fmax_mhz: f64,
    /// The timing model the figures come from (the slowest corner).
    pub model: String,
}

/// Every clock in the `Fmax Summary` tables, with its lowest restricted fmax.
pub fn parse_sta_fmax(text: &str) -> Result<Vec<ClockFmax>, String> {
    let mut out: Vec<ClockFmax> = Vec::new();
    let mut model: Option<String> = None;
    let mut tables = 0;
    for line in text.lines() {
        let t = line.trim();
        if let Some(m) = t.strip_prefix(';').and_then(|r| {
            r.trim()
                .trim_end_matches(';')
                .trim()
                .strip_suffix("Fmax Summary")
        }) {
            model = Some(m.trim().to_string());
            tables += 1;
            continue;
        }
        let Some(m) = &model else { continue };
        if t.starts_with('+') {
            continue;
        }
        if !t.starts_with(';') {
            model = None;
            continue;
        }
        let cells: Vec<&str> = t.trim_matches(';').split(';').map(str::trim).collect();
        let mhz = |c: &str| {
            c.strip_suffix("MHz")
                .and_then(|x| x.trim().parse::<f64>().ok())
        };
        let (Some(f), Some(r), Some(clock)) = (
            cells.first().and_then(|c| mhz(c)),
            cells.get(1).and_then(|c| mhz(c)),
            cells.get(2),
        ) else {
            continue;
        };
        match out.iter_mut().find(|c| c.clock == *clock) {
            Some(c) if r < c.restricted_fmax_mhz => {
                c.fmax_mhz = f;
                c.restricted_fmax_mhz = r;
                c.model = m.clone();
            }
            Some(_) => {}
            None => out.push(ClockFmax {
                clock: clock.to_string(),
                fmax_mhz: f,
                restricted_fmax_mhz: r,
                model: m.clone(),
            }),
        }
    }
    if tables == 0 {
        return Err("the timing report has no `Fmax Summary` table".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_summary_values() {
        let t = "Fitter Status : Successful - Sun Nov 22 05:00:00 2026\n\
                 Logic utilization (in ALMs) : 4,321 / 41,910 ( 10 % )\n\
                 Total registers : 6789\n\
                 Total RAM Blocks : 12 / 553 ( 2 % )\n\
                 Total DSP Blocks : 3 / 112 ( 3 % )\n\
                 Total block memory bits : 1,024 / 5,662,720 ( < 1 % )\n";
        let f = parse_fit_summary(t).unwrap();
        assert_eq!(
            f.alms,
            Some(Usage {
                used: 4321,
                available: Some(41910)
            })
        );
        assert_eq!(f.registers.unwrap().used, 6789);
        assert_eq!(f.block_memory_bits.unwrap().available, Some(5_662_720));
        assert!(parse_fit_summary("Total registers : 1\n").is_err());
    }

    #[test]
    fn fmax_takes_the_slowest_model() {
        let t = "+----+\n; Slow 1100mV 100C Model Fmax Summary ;\n+----+\n\
                 ; Fmax ; Restricted Fmax ; Clock Name ; Note ;\n+----+\n\
                 ; 120.5 MHz ; 120.5 MHz ; u|pll_0|outclk0 ; ;\n\
                 ; 900.0 MHz ; 717.36 MHz ; FPGA_CLK1_50 ; limit due to minimum period ;\n+----+\n\
                 This panel reports FMAX for every clock.\n\n\
                 ; Slow 1100mV -40C Model Fmax Summary ;\n+----+\n\
                 ; 118.0 MHz ; 118.0 MHz ; u|pll_0|outclk0 ; ;\n+----+\n";
        let c = parse_sta_fmax(t).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].restricted_fmax_mhz, 118.0);
        assert_eq!(c[0].model, "Slow 1100mV -40C Model");
        assert_eq!(c[1].restricted_fmax_mhz, 717.36);
        assert!(parse_sta_fmax("nothing").is_err());
    }
}
