// Exercise 10: the events of a double-buffered stream of frames.
//
// The host filters a stream of frames with two in-order command queues: a transfer queue runs
// every upload and download, a compute queue runs the row and column kernels. Frame i uses
// input buffer i % 2 and output buffer i % 2 (double buffering); the two kernels share one row
// buffer. In round t the host enqueues, without ever stopping to wait itself:
//     upload(t)                 on the transfer queue
//     row(t-1), column(t-1)     on the compute queue
//     download(t-2)             on the transfer queue
// so frame t travels in while frame t-1 is filtered and frame t-2 travels out.
//
// Each queue keeps its own commands in order; between the two queues, only the events you list
// here order anything. For each command of frame i, list the commands it must wait for, one
// line per wait:
//     WAIT(COMMAND, WAITS_FOR, FRAMES_BACK)
// meaning "COMMAND of frame i waits for WAITS_FOR of frame i - FRAMES_BACK" (FRAMES_BACK is 0
// for the same frame). Waits on frames before the first are skipped. Too few waits and frames
// overwrite each other; too many and the queues stop overlapping. `./course check 10` checks
// both, then runs a stream on your device and compares every frame with the CPU.
//
// The host reads this table by running list_frame_waits below; you only fill in the gaps.

enum frame_command { UPLOAD = 0, ROW = 1, COLUMN = 2, DOWNLOAD = 3 };
#define WAIT(command, waits_for, frames_back) {command, waits_for, frames_back},

__constant int frame_waits[][3] = {
/* >>> GAP 1: what must ROW of frame i wait for before it reads input buffer i % 2? */
/* <<< GAP 1 */
/* >>> GAP 2: what must COLUMN of frame i wait for before it overwrites output buffer i % 2? */
/* <<< GAP 2 */
/* >>> GAP 3: what must DOWNLOAD of frame i wait for before it copies output buffer i % 2 out? */
/* <<< GAP 3 */
/* >>> GAP 4: what must UPLOAD of frame i wait for before it overwrites input buffer i % 2? */
/* <<< GAP 4 */
    {-1, -1, -1}  // the end of the table
};

// Copies the table out: waits[0] = number of waits, then three ints per wait.
__kernel void list_frame_waits(__global int* waits, const int capacity) {
  int count = 0;
  while (count < capacity && frame_waits[count][0] >= 0) {
    for (int k = 0; k < 3; ++k) waits[1 + 3 * count + k] = frame_waits[count][k];
    ++count;
  }
  waits[0] = count;
}
