//! The `ocl-hls` command line.

fn main() {
    println!("ocl-hls");
}
