//! The `ocl-ref` binary: `ocl-ref run FILE.cl --spec FILE.yaml --out DIR`.
fn main() {}
