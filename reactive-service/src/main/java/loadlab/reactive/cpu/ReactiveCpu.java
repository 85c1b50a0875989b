package loadlab.reactive.cpu;

import loadlab.thread.cpu.CpuWork;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * {@code cpuMs} of the thread-service's own computation ({@link CpuWork}), done where a reactive service should do
 * it: on Reactor's parallel scheduler, one worker per core. Not on the event loop that received the request: a loop
 * busy computing cannot accept, read or write for the other connections it owns, so every request on it would wait
 * behind the computation, and the management port's samples with them. Not on boundedElastic either: that pool is
 * for blocking calls and grows to 10 x cores threads, which would only time-slice the same cores. The parallel
 * workers are as many as virtual threads' carriers, so the two shapes compute on the same number of threads.
 */
@Component
public class ReactiveCpu {

    private final CpuWork work;

    private final Scheduler scheduler = Schedulers.parallel();

    ReactiveCpu(CpuWork work) {
        this.work = work;
    }

    /** Completes once {@code ms} of computation is done; at once, with no hop to another thread, for 0. */
    public Mono<Void> run(long ms) {
        if (ms <= 0) {
            return Mono.empty();
        }
        return Mono.<Void>fromRunnable(() -> work.run(ms)).subscribeOn(scheduler);
    }
}
