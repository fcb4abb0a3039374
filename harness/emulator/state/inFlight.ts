/**
 * Requests the emulator has received and not finished answering, across every key and route: from
 * arrival until the answer is whole (a JSON body made, a refusal made, a stream's last event sent or
 * the client gone). What the load faults read to tell "under load" (faults/catalogue.ts).
 */
export class RequestsInFlight {
  #count = 0;

  get count(): number {
    return this.#count;
  }

  /** Counts one request from now; the function returned stops counting it (a second call does nothing). */
  enter(): () => void {
    this.#count += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#count -= 1;
    };
  }
}
