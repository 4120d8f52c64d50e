import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Simulates a month of activity at a small bank and prints statements. */
class BankSimulation {

    static class InsufficientFundsException extends Exception {
        InsufficientFundsException(String message) {
            super(message);
        }
    }

    static class Account {
        private final String owner;
        private long balanceCents;
        private final List<String> history = new ArrayList<>();

        Account(String owner, long openingCents) {
            this.owner = owner;
            this.balanceCents = openingCents;
            history.add(String.format("open      %10s", money(openingCents)));
        }

        void deposit(long cents) {
            if (cents <= 0) throw new IllegalArgumentException("deposit must be positive");
            balanceCents += cents;
            history.add(String.format("deposit   %10s", money(cents)));
        }

        void withdraw(long cents) throws InsufficientFundsException {
            if (cents > balanceCents) {
                history.add(String.format("DECLINED  %10s", money(cents)));
                throw new InsufficientFundsException(owner + " cannot withdraw " + money(cents));
            }
            balanceCents -= cents;
            history.add(String.format("withdraw  %10s", money(cents)));
        }

        void addInterest(double yearlyRate) {
            long interest = Math.round(balanceCents * yearlyRate / 12.0);
            if (interest > 0) {
                balanceCents += interest;
                history.add(String.format("interest  %10s", money(interest)));
            }
        }

        long balance() {
            return balanceCents;
        }

        void printStatement() {
            System.out.println("Statement for " + owner);
            for (String line : history) System.out.println("  " + line);
            System.out.println("  balance   " + String.format("%10s", money(balanceCents)));
        }
    }

    static String money(long cents) {
        String sign = cents < 0 ? "-" : "";
        long abs = Math.abs(cents);
        return String.format("%s%d.%02d", sign, abs / 100, abs % 100);
    }

    static void transfer(Account from, Account to, long cents) throws InsufficientFundsException {
        from.withdraw(cents);
        to.deposit(cents);
    }

    public static void main(String[] args) {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : 42L;
        Random rng = new Random(seed);
        Map<String, Account> accounts = new LinkedHashMap<>();
        String[] names = {"Alice", "Bob", "Carol", "Dave"};
        for (String name : names) accounts.put(name, new Account(name, 10_000 + rng.nextInt(50_000)));

        int declined = 0;
        for (int day = 1; day <= 30; day++) {
            for (Account a : accounts.values()) {
                int roll = rng.nextInt(10);
                try {
                    if (roll < 3) {
                        a.deposit(500 + rng.nextInt(20_000));
                    } else if (roll < 7) {
                        a.withdraw(500 + rng.nextInt(15_000));
                    } else if (roll == 7) {
                        Account other = accounts.get(names[rng.nextInt(names.length)]);
                        if (other != a) transfer(a, other, 1_000 + rng.nextInt(10_000));
                    }
                } catch (InsufficientFundsException e) {
                    declined++;
                }
            }
        }
        for (Account a : accounts.values()) a.addInterest(0.03);

        long total = 0;
        for (Account a : accounts.values()) {
            a.printStatement();
            total += a.balance();
            System.out.println();
        }
        System.out.println("Bank holdings: " + money(total) + ", declined operations: " + declined);
    }
}
