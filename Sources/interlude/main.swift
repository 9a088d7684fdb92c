import InterludeCommandLine

InterludeCommand.main()
