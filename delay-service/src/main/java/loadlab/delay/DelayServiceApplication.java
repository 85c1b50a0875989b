package loadlab.delay;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class DelayServiceApplication {
    public static void main(String[] args) {
        SpringApplication.run(DelayServiceApplication.class, args);
    }
}
