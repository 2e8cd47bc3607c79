//! One reference run: build the kernel file on the runtime, match the spec to the kernel
//! the runtime reports, set the arguments, run the NDRange, read every buffer back.

use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::ptr;

use ocl_hls::launch::output::RunRecord;
use ocl_hls::launch::{
    resolve, ArgValue, BufferArg, ElemType, KernelSig, Launch, LaunchSpec, ParamKind, ParamSig,
};
use opencl3::kernel::{set_kernel_arg, Kernel};
use opencl3::memory::{Buffer, ClMem, CL_MEM_COPY_HOST_PTR, CL_MEM_READ_WRITE};
use opencl3::program::Program;
use opencl3::types::{cl_mem, CL_BLOCKING};

use crate::error::{cl, RefError};
use crate::runtime::Runtime;
use crate::source::{build_options, reference_source};

/// Work-group size bound when neither the spec nor the kernel fixes one.
const DEFAULT_MAX_GROUP: u64 = 256;

// CL_KERNEL_ARG_ADDRESS_* from the OpenCL API.
const ADDRESS_GLOBAL: u32 = 0x119B;
const ADDRESS_LOCAL: u32 = 0x119C;
const ADDRESS_CONSTANT: u32 = 0x119D;

/// Options beside the spec, as on the command line.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// `-D NAME[=VALUE]`, after (and so overriding) the spec's `defines`.
    pub defines: Vec<(String, Option<String>)>,
    /// `-I DIR`, searched after the kernel's folder.
    pub includes: Vec<PathBuf>,
    /// More build options, after the others (the floating-point ones, such as
    /// `-cl-fast-relaxed-math`, that `ocl-hls build` and `run` take too).
    pub build_options: Vec<String>,
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct RefRun {
    pub launch: Launch,
    /// Final bytes of every buffer argument, by parameter name, in parameter order.
    pub buffers: Vec<(String, Vec<u8>)>,
}

impl RefRun {
    /// The `run.json` record of this run.
    pub fn record(&self) -> RunRecord {
        RunRecord {
            kernel: self.launch.kernel.clone(),
            engine: "pocl".into(),
            global: self.launch.global.clone(),
            local: self.launch.local.clone(),
            args: self.launch.args.iter().map(|a| a.name.clone()).collect(),
            cycles: None,
            loops: Vec::new(),
        }
    }

    /// The final bytes of buffer parameter `name`.
    pub fn buffer(&self, name: &str) -> Option<&[u8]> {
        self.buffers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.as_slice())
    }
}

/// Reads the spec file and runs `kernel_file` with it.
pub fn run_files(
    rt: &Runtime,
    kernel_file: &Path,
    spec_file: &Path,
    opts: &RunOptions,
) -> Result<RefRun, RefError> {
    let spec = LaunchSpec::load(spec_file)?;
    run(rt, kernel_file, &spec, opts)
}

/// Runs `kernel_file` as `spec` says.
pub fn run(
    rt: &Runtime,
    kernel_file: &Path,
    spec: &LaunchSpec,
    opts: &RunOptions,
) -> Result<RefRun, RefError> {
    let text = std::fs::read_to_string(kernel_file)
        .map_err(|e| RefError::Input(format!("cannot read {}: {e}", kernel_file.display())))?;
    let source = reference_source(&text);
    let mut defines = spec_defines(spec);
    defines.extend(opts.defines.iter().cloned());
    let dir = kernel_file.parent().unwrap_or(Path::new("."));
    let includes: Vec<&Path> = opts.includes.iter().map(PathBuf::as_path).collect();
    let mut options = build_options(dir, &includes, &defines).map_err(RefError::Input)?;
    for o in &opts.build_options {
        options = format!("{options} {o}");
    }
    // Extra compiler options (the fuzzer's `-cl-opt-disable` second opinion).
    if let Ok(extra) = std::env::var("OCL_REF_BUILD_OPTIONS") {
        options = format!("{options} {extra}");
    }
    if source.contains('\0') {
        return Err(RefError::Input(format!(
            "{}: has a NUL byte",
            kernel_file.display()
        )));
    }
    let program =
        Program::create_and_build_from_source(&rt.context, &source, &options).map_err(|log| {
            RefError::Build {
                file: kernel_file.display().to_string(),
                log,
            }
        })?;
    let kernels = kernel_sigs(rt, &program)?;
    let max_group = cl(
        "clGetDeviceInfo(MAX_WORK_GROUP_SIZE)",
        rt.device.max_work_group_size(),
    )? as u64;
    let launch = resolve(spec, &kernels, max_group.min(DEFAULT_MAX_GROUP))?;
    let kernel = cl("clCreateKernel", Kernel::create(&program, &launch.kernel))?;
    let buffers = execute(rt, &kernel, &launch)?;
    Ok(RefRun { launch, buffers })
}

fn spec_defines(spec: &LaunchSpec) -> Vec<(String, Option<String>)> {
    spec.defines
        .iter()
        .map(|(k, v)| (k.clone(), v.0.clone()))
        .collect()
}

/// The signature of every kernel in the program as the runtime sees it: the judge does
/// not rely on this project's own frontend.
fn kernel_sigs(rt: &Runtime, program: &Program) -> Result<Vec<KernelSig>, RefError> {
    let mut sigs = Vec::new();
    for name in program.kernel_names().split(';').filter(|n| !n.is_empty()) {
        let k = cl("clCreateKernel", Kernel::create(program, name))?;
        let n = cl("clGetKernelInfo(NUM_ARGS)", k.num_args())?;
        let mut params = Vec::new();
        for i in 0..n {
            let pname = cl("clGetKernelArgInfo(NAME)", k.get_arg_name(i))?;
            let ty = cl("clGetKernelArgInfo(TYPE_NAME)", k.get_arg_type_name(i))?;
            let space = cl(
                "clGetKernelArgInfo(ADDRESS_QUALIFIER)",
                k.get_arg_address_qualifier(i),
            )?;
            let pointer = ty.trim_end().ends_with('*');
            let kind = match space {
                ADDRESS_GLOBAL | ADDRESS_CONSTANT if pointer => ParamKind::Buffer,
                ADDRESS_LOCAL if pointer => ParamKind::Local,
                _ if !pointer => ParamKind::Scalar(ElemType::from_c_name(&ty)),
                _ => ParamKind::Other,
            };
            params.push(ParamSig {
                name: pname,
                type_name: ty,
                kind,
            });
        }
        let wg = cl(
            "clGetKernelWorkGroupInfo(COMPILE_WORK_GROUP_SIZE)",
            k.get_compile_work_group_size(rt.device.id()),
        )?;
        let reqd = match wg.as_slice() {
            [x, y, z] if *x != 0 => Some([*x as u64, *y as u64, *z as u64]),
            _ => None,
        };
        sigs.push(KernelSig {
            name: name.to_string(),
            params,
            reqd_work_group_size: reqd,
        });
    }
    Ok(sigs)
}

fn execute(
    rt: &Runtime,
    kernel: &Kernel,
    launch: &Launch,
) -> Result<Vec<(String, Vec<u8>)>, RefError> {
    // Buffers must outlive the run; kept per parameter (`None`: not a buffer of its own).
    let mut mems: Vec<Option<(Buffer<u8>, usize)>> = Vec::new();
    let mut subs: Vec<Buffer<u8>> = Vec::new();
    for (i, arg) in launch.args.iter().enumerate() {
        let idx = i as u32;
        mems.push(None);
        match &arg.value {
            ArgValue::Buffer(BufferArg {
                same_as: Some(s), ..
            }) => {
                let Some(Some((target, len))) = mems.get(s.arg) else {
                    return Err(RefError::Input(format!(
                        "argument {} is the same buffer as argument {}, which has no buffer",
                        arg.name, s.arg
                    )));
                };
                // The one buffer passed twice: itself, or the sub-buffer from the offset.
                let mem: cl_mem = if s.offset == 0 {
                    target.get()
                } else {
                    // SAFETY: the region lies inside the target (checked by the launch).
                    let sub = cl("clCreateSubBuffer", unsafe {
                        target.create_sub_buffer(
                            CL_MEM_READ_WRITE,
                            s.offset as usize,
                            len - s.offset as usize,
                        )
                    })?;
                    let m = sub.get();
                    subs.push(sub);
                    m
                };
                // SAFETY: idx is a parameter of this kernel, and a cl_mem is its value.
                cl("clSetKernelArg", unsafe { kernel.set_arg(idx, &mem) })?;
            }
            ArgValue::Buffer(b) => {
                let mut host = b.bytes.clone();
                // SAFETY: host points at host.len() valid bytes, copied at creation.
                let buf = cl("clCreateBuffer", unsafe {
                    Buffer::<u8>::create(
                        &rt.context,
                        CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        host.len(),
                        host.as_mut_ptr() as *mut c_void,
                    )
                })?;
                let mem: cl_mem = buf.get();
                // SAFETY: idx is a parameter of this kernel, and a cl_mem is its value.
                cl("clSetKernelArg", unsafe { kernel.set_arg(idx, &mem) })?;
                mems[i] = Some((buf, host.len()));
            }
            ArgValue::Scalar { bytes, .. } => {
                // SAFETY: bytes holds exactly the argument's size; the runtime copies it.
                cl("clSetKernelArg", unsafe {
                    set_kernel_arg(
                        kernel.get(),
                        idx,
                        bytes.len(),
                        bytes.as_ptr() as *const c_void,
                    )
                })?;
            }
            ArgValue::Local { ty, count } => {
                let size = *count as usize * ty.size();
                // SAFETY: a __local parameter takes a size and a null value.
                cl("clSetKernelArg", unsafe {
                    kernel.set_arg_local_buffer(idx, size)
                })?;
            }
        }
    }
    let global: Vec<usize> = launch.global.iter().map(|&g| g as usize).collect();
    let local: Vec<usize> = launch.local.iter().map(|&l| l as usize).collect();
    // SAFETY: every argument is set; the size arrays have work_dim entries.
    cl("clEnqueueNDRangeKernel", unsafe {
        rt.queue.enqueue_nd_range_kernel(
            kernel.get(),
            global.len() as u32,
            ptr::null(),
            global.as_ptr(),
            local.as_ptr(),
            &[],
        )
    })?;
    cl("clFinish", rt.queue.finish())?;
    let mut finals = Vec::with_capacity(mems.len());
    for m in &mems {
        finals.push(match m {
            Some((buf, len)) => {
                let mut bytes = vec![0u8; *len];
                // SAFETY: bytes has the buffer's size; the read is blocking.
                cl("clEnqueueReadBuffer", unsafe {
                    rt.queue
                        .enqueue_read_buffer(buf, CL_BLOCKING, 0, &mut bytes, &[])
                })?;
                Some(bytes)
            }
            None => None,
        });
    }
    drop(subs);
    Ok(launch
        .args
        .iter()
        .zip(launch.with_aliases(finals))
        .filter_map(|(a, b)| b.map(|bytes| (a.name.clone(), bytes)))
        .collect())
}
