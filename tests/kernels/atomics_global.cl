// Every atomic operation on __global memory, 32- and 64-bit, with results that do not
// depend on the order the work-items run in: each work-item applies every operation
// once to shared counters, and keeps the old values only where they are order-free.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

__kernel void atomics_global(__global const int *in, __global int *s, __global uint *u,
                             __global long *l, __global ulong *ul, __global float *f,
                             __global int *olds)
{
    size_t i = get_global_id(0);
    int v = in[i];
    atomic_add(&s[0], v);
    atomic_sub(&s[1], v);
    atomic_inc(&s[2]);
    atomic_dec(&s[3]);
    atomic_min(&s[4], v);
    atomic_max(&s[5], v);
    atomic_and(&u[2], ~(1u << (v & 31)) | 0xAAAA5555u);
    atomic_or(&s[7], 1 << (v & 31));
    atomic_xor(&s[6], v << 3);
    atomic_xor(&s[8], v);
    /* one work-item per value of i wins each slot: the old value is always 0 */
    olds[i] = atomic_cmpxchg(&s[9 + i], 0, v);
    atomic_min(&u[0], (uint)v);
    atomic_max(&u[1], (uint)v);
    atom_add(&l[0], (long)v * 1000003L);
    atom_sub(&l[1], (long)v << 20);
    atom_min(&l[2], (long)v * -5000000000L);
    atom_max(&l[3], (long)v * 5000000000L);
    atom_xor(&l[4], (long)v << 33);
    atom_and(&ul[0], ~(1UL << (v & 63)));
    atom_or(&ul[1], 1UL << (v & 63));
    atom_min(&ul[2], (ulong)(long)v);
    atom_max(&ul[3], (ulong)(long)v);
    olds[64 + i] = (int)atom_xchg(&l[5 + i], (long)v);
    atomic_xchg(&f[i], (float)v * 0.5f);
}
