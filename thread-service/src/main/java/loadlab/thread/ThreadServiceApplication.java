package loadlab.thread;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class ThreadServiceApplication {
    public static void main(String[] args) {
        SpringApplication.run(ThreadServiceApplication.class, args);
    }
}
