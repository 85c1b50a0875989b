package loadlab.thread;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class ThreadServiceApplication {
    public static void main(String[] args) {
        SpringApplication.run(ThreadServiceApplication.class, args);
    }
}
