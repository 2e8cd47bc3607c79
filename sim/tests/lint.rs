//! `verilator --lint-only -Wall` is clean on the hand-written test cores with their
//! templates, as it must be on every core the code generator emits.

mod common;

use rtl_templates::verilator::lint;

#[test]
fn test_cores_lint_clean() {
    for desc in [
        common::vadd_desc(),
        common::scale_desc(),
        common::raw_desc(),
    ] {
        lint(&desc.top, &desc.rtl, &[]).unwrap_or_else(|e| panic!("{e}"));
    }
}
