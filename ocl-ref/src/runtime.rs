//! The OpenCL platform, device, context and queue a reference run uses (POCL preferred).

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::platform::get_platforms;

use crate::error::RefError;

/// An OpenCL device ready to run kernels. Create once and reuse: building a context
/// costs far more than a small kernel run.
pub struct Runtime {
    pub device: Device,
    pub context: Context,
    pub queue: CommandQueue,
    /// `platform name / device name`, for messages.
    pub description: String,
}

impl Runtime {
    /// Opens the first device of the POCL platform, or of the first platform with a
    /// device when POCL is not installed.
    pub fn new() -> Result<Runtime, RefError> {
        let no = |m: String| RefError::NoPlatform(m);
        // With the "dynamic" feature the ICD loader is opened at run time, so a machine
        // without OpenCL fails here, not at link time.
        let mut platforms = get_platforms().map_err(|e| no(e.to_string()))?;
        platforms.sort_by_key(|p| !p.name().unwrap_or_default().contains("Portable Computing"));
        for p in platforms {
            let Ok(ids) = p.get_devices(CL_DEVICE_TYPE_ALL) else {
                continue;
            };
            let Some(&id) = ids.first() else { continue };
            let device = Device::new(id);
            let context = Context::from_device(&device).map_err(|e| no(e.to_string()))?;
            #[allow(deprecated)] // the 1.x call works on every runtime version
            let queue = CommandQueue::create_default(&context, 0).map_err(|e| no(e.to_string()))?;
            let description = format!(
                "{} / {}",
                p.name().unwrap_or_default(),
                device.name().unwrap_or_default()
            );
            return Ok(Runtime {
                device,
                context,
                queue,
                description,
            });
        }
        Err(no("no platform has a device".into()))
    }
}
