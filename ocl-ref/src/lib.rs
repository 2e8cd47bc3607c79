//! ocl-ref: runs OpenCL C kernels with a launch spec on the installed OpenCL platform.
